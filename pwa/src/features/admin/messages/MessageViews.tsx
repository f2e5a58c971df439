import type { OutboundMessage } from '@filamu/shared';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { formatDateTime } from '../payments/presentation.ts';
import { CHANNEL_LABEL, STATUS_LABEL, STATUS_TONE, partsAndCost, purposeLabel, recipient } from './presentation.ts';

const muted = 'text-stone-600 dark:text-stone-400';

function StatusBadge({ m }: { m: OutboundMessage }) {
  return (
    <Badge tone={STATUS_TONE[m.status]} className="whitespace-nowrap">
      {STATUS_LABEL[m.status]}
    </Badge>
  );
}

/** Resend, or why not: a message that held a code or a password says so instead of offering the button. */
function ResendAction({ m, onResend }: { m: OutboundMessage; onResend: (m: OutboundMessage) => void }) {
  if (m.channel === 'push') return <span className={`text-sm ${muted}`}>—</span>;
  if (m.not_resendable) return <span className={`text-sm ${muted}`}>Not resendable: {m.not_resendable}</span>;
  return (
    <Button
      size="sm"
      variant="outline"
      onClick={() => onResend(m)}
      aria-label={`Resend ${CHANNEL_LABEL[m.channel]} to ${recipient(m.channel, m.to)}`}
    >
      Resend
    </Button>
  );
}

function Content({ m }: { m: OutboundMessage }) {
  return (
    <div className="max-w-md">
      <div className="font-medium">{purposeLabel(m.purpose)}</div>
      {m.subject && <div className="break-words">{m.subject}</div>}
      <div className={`line-clamp-3 break-words ${muted}`}>{m.body}</div>
      {m.resent_from && <div className={`text-xs ${muted}`}>Resent copy</div>}
    </div>
  );
}

/** "Grace Nakato" over "0772 123 456": a number never breaks inside, an address breaks only where it must. */
function Recipient({ m }: { m: OutboundMessage }) {
  const address = recipient(m.channel, m.to);
  return (
    <div className="min-w-36">
      {m.recipient_name && <div className="font-medium break-words">{m.recipient_name}</div>}
      <div className={m.channel === 'sms' ? 'whitespace-nowrap' : 'break-words'}>{address}</div>
    </div>
  );
}

function ErrorText({ m }: { m: OutboundMessage }) {
  return m.error ? <span className="break-words text-red-800 dark:text-red-300">{m.error}</span> : <span>—</span>;
}

/** The table and the cards show the same rows the same way. */
interface MessageListProps {
  rows: OutboundMessage[];
  loading: boolean;
  empty: string;
  onResend: (m: OutboundMessage) => void;
}

/** Desktop: a real table (caption, headers) for screen readers. */
export function MessagesTable({ rows, loading, empty, onResend }: MessageListProps) {
  const columns: Column<OutboundMessage>[] = [
    {
      id: 'time',
      header: 'Time',
      cell: (m) => <span className="whitespace-nowrap">{formatDateTime(m.created_at)}</span>,
    },
    { id: 'channel', header: 'Channel', cell: (m) => CHANNEL_LABEL[m.channel] },
    { id: 'to', header: 'To', cell: (m) => <Recipient m={m} /> },
    { id: 'message', header: 'Message', cell: (m) => <Content m={m} /> },
    { id: 'status', header: 'Status', cell: (m) => <StatusBadge m={m} /> },
    {
      id: 'parts',
      header: 'Parts · cost',
      cell: (m) => <span className="whitespace-nowrap">{partsAndCost(m.parts, m.cost)}</span>,
    },
    { id: 'error', header: 'Error', cell: (m) => <ErrorText m={m} />, hideOnNarrow: true },
    { id: 'actions', header: 'Actions', cell: (m) => <ResendAction m={m} onResend={onResend} /> },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(m) => `${m.channel}:${m.id}`}
      caption="Messages, newest first"
      loading={loading}
      empty={empty}
    />
  );
}

/** Phones: one card per message, nothing wider than the screen. */
export function MessageCards({ rows, loading, empty, onResend }: MessageListProps) {
  if (rows.length === 0) {
    return (
      <p className={`rounded-2xl border border-stone-200 p-5 text-center dark:border-stone-800 ${muted}`}>
        {loading ? 'Loading messages…' : empty}
      </p>
    );
  }
  return (
    <ul aria-label="Messages, newest first" className="space-y-3">
      {rows.map((m) => (
        <li
          key={`${m.channel}:${m.id}`}
          className="space-y-2 rounded-2xl border border-stone-200 bg-white p-4 text-sm dark:border-stone-800 dark:bg-stone-900"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-semibold break-words">
              {CHANNEL_LABEL[m.channel]} to {m.recipient_name ? `${m.recipient_name}, ` : ''}
              {recipient(m.channel, m.to)}
            </span>
            <StatusBadge m={m} />
          </div>
          <div className={muted}>
            {formatDateTime(m.created_at)} · {partsAndCost(m.parts, m.cost)}
          </div>
          <Content m={m} />
          {m.error && (
            <p>
              <ErrorText m={m} />
            </p>
          )}
          <ResendAction m={m} onResend={onResend} />
        </li>
      ))}
    </ul>
  );
}
