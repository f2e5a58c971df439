import { type Subscriber, type SupportHistoryEntry, formatDateTime } from '@filamu/shared';
import { Button } from '../../../components/ui/Button.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { FormDialog } from '../components/FormDialog.tsx';
import { useSupportHistory } from './queries.ts';
import { smsInHistory } from './support-sms.ts';
import { subscriberLine } from './subscriber-line.ts';

const ACTION_LABELS: Record<SupportHistoryEntry['action'], string> = {
  redownload_granted: 'Re-download granted',
  password_reset: 'Password reset',
};

/** The person's history as support sees it (decision 0214): when, which admin, what, the note, and the text's fate. */
export function HistoryDialog({ subscriber, onClose }: { subscriber: Subscriber | null; onClose: () => void }) {
  return (
    <FormDialog
      open={subscriber !== null}
      onClose={onClose}
      title="Support history"
      description={subscriberLine(subscriber)}
      wide
    >
      {subscriber && <HistoryList id={subscriber.id} />}
      <div className="mt-5 flex justify-end">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </div>
    </FormDialog>
  );
}

function HistoryList({ id }: { id: string }) {
  const history = useSupportHistory(id);
  if (history.isError) {
    return <LoadFailure what="the history" error={history.error} onRetry={() => void history.refetch()} />;
  }
  if (!history.data) return <Spinner label="Loading the history" className="mx-auto my-6 size-6" />;
  if (history.data.entries.length === 0) {
    return (
      <p className="text-sm text-stone-600 dark:text-stone-400">
        No support actions yet. Re-downloads granted and password resets appear here.
      </p>
    );
  }
  return (
    <ol aria-label="Support actions, newest first" className="space-y-3">
      {history.data.entries.map((entry) => (
        <li key={entry.id} className="rounded-xl border border-stone-200 p-3 dark:border-stone-700">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            <span className="font-semibold text-stone-900 dark:text-white">{ACTION_LABELS[entry.action]}</span>
            <time dateTime={entry.at} className="text-sm text-stone-600 dark:text-stone-400">
              {formatDateTime(entry.at)}
            </time>
          </div>
          <p className="mt-1 text-sm break-words text-stone-700 dark:text-stone-300">
            By{' '}
            {entry.admin ? `${entry.admin.name || entry.admin.email} (${entry.admin.email})` : 'an admin since removed'}
            {' · '}
            {smsInHistory(entry.sms, entry.smsStatus)}
          </p>
          {entry.note && (
            <blockquote className="mt-2 border-l-4 border-stone-300 pl-3 text-sm break-words whitespace-pre-wrap text-stone-800 dark:border-stone-600 dark:text-stone-200">
              {entry.note}
            </blockquote>
          )}
        </li>
      ))}
    </ol>
  );
}
