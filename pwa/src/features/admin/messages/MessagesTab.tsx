import {
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
  type MessageChannel,
  type MessageStatus,
  type OutboundMessage,
} from '@filamu/shared';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { SelectField } from '../components/SelectField.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { MessageCards, MessagesTable } from './MessageViews.tsx';
import { CHANNEL_LABEL, STATUS_LABEL, recipient } from './presentation.ts';
import { useMessages, useResendMessage } from './queries.ts';

const SEARCH_DELAY_MS = 300;

/** Issue 20 §5: every SMS, email and push Filamu sent, with status, parts, cost and error; Resend where safe. */
export default function MessagesTab() {
  const [channel, setChannel] = useState<MessageChannel | null>(null);
  const [status, setStatus] = useState<MessageStatus | null>(null);
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [resending, setResending] = useState<OutboundMessage | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const list = useMessages({ channel, status, q });
  const resend = useResendMessage();
  const rows = list.data?.pages.flatMap((p) => p.messages) ?? [];
  const filtered = Boolean(channel || status || q);
  const empty = filtered
    ? 'No messages match these filters. Clear the search or choose All.'
    : 'No messages yet. Codes, receipts and reminders appear here once sent.';
  const loading = list.isPending || (list.isFetching && !list.isFetchingNextPage && list.isPlaceholderData);

  const confirmResend = () => {
    if (!resending) return;
    resend.mutate(
      { channel: resending.channel, id: resending.id },
      {
        onSuccess: (result) => toast.success('Message resent', result.message),
        onError: (error) => toast.error('Could not resend', errorMessage(error, 'Please try again.')),
        onSettled: () => setResending(null),
      },
    );
  };

  return (
    <>
      <TabHeading
        title="Messages"
        description="Every text message, email and push notification, newest first. Search by phone number or email."
        actions={
          <Button variant="outline" onClick={() => void list.refetch()} loading={list.isRefetching}>
            Refresh
          </Button>
        }
      />
      <div className="mb-4 grid gap-4 sm:grid-cols-[10rem_10rem_1fr] sm:items-end">
        <SelectField
          label="Channel"
          value={channel ?? ''}
          onChange={(e) => setChannel((e.target.value || null) as MessageChannel | null)}
        >
          <option value="">All</option>
          {MESSAGE_CHANNELS.map((c) => (
            <option key={c} value={c}>
              {CHANNEL_LABEL[c]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) => setStatus((e.target.value || null) as MessageStatus | null)}
        >
          <option value="">All</option>
          {MESSAGE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </SelectField>
        <Input
          label="Search messages"
          type="search"
          placeholder="Phone (0772 123 456) or email"
          value={typed}
          maxLength={100}
          onChange={(e) => setTyped(e.target.value)}
          className="w-full sm:max-w-sm"
        />
      </div>
      <p role="status" className="sr-only">
        {list.isSuccess && `${rows.length} ${rows.length === 1 ? 'message' : 'messages'} shown`}
      </p>

      {list.isError && !list.data ? (
        <LoadFailure what="messages" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <div className="hidden md:block">
            <MessagesTable rows={rows} loading={loading} empty={empty} onResend={setResending} />
          </div>
          <div className="md:hidden">
            <MessageCards rows={rows} loading={loading} empty={empty} onResend={setResending} />
          </div>
          {list.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button variant="outline" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
                Show more
              </Button>
            </div>
          )}
        </>
      )}

      <ConfirmDialog
        open={resending !== null}
        title="Resend this message?"
        confirmLabel="Resend"
        confirmVariant="primary"
        busy={resend.isPending}
        onConfirm={confirmResend}
        onClose={() => !resend.isPending && setResending(null)}
      >
        <p>
          A copy goes to {resending && recipient(resending.channel, resending.to)} as a new{' '}
          {resending && CHANNEL_LABEL[resending.channel]}
          {resending?.channel === 'sms' ? ', at the gateway’s price' : ''}. The original stays as it is.
        </p>
      </ConfirmDialog>
    </>
  );
}
