import { formatUgx, type SmsBudgetPurpose, type SmsBudgetStatus } from '@filamu/shared';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { SmsBudgetForm } from './SmsBudgetForm.tsx';
import { useSmsBudgetStatus } from './sms-budget-queries.ts';

export const PURPOSE_NAMES: Record<SmsBudgetPurpose, string> = {
  codes: 'Codes',
  receipts: 'Receipts and notices',
  reminders: 'Plan reminders',
  credentials: 'Agent passwords',
};

const count = (n: number) => n.toLocaleString('en-US');

/** The alarm in words: what crossed, and what the admin can do about it. */
function alarmLines(status: SmsBudgetStatus): string[] {
  const lines = status.purposes
    .filter((p) => p.alarm)
    .map((p) => {
      const name = PURPOSE_NAMES[p.purpose];
      const used = `${count(p.hour.sent)} of ${count(p.hour.ceiling)} this hour, ${count(p.day.sent)} of ${count(p.day.ceiling)} today`;
      return p.reached
        ? `${name} have reached their ceiling (${used}). ${p.purpose === 'codes' ? 'People asking for a code are told to try again later.' : 'They wait in the outbox until it allows.'} If this is a flood, leave it; if it is real demand, raise the ceiling below.`
        : `${name} are near their ceiling (${used}). Check the Messages tab for a flood of code requests, or raise the ceiling below.`;
    });
  if (status.balanceLow && status.balanceUgx !== null) {
    lines.push(
      `The SMS gateway's balance is ${formatUgx(Math.floor(status.balanceUgx))}, under your alarm of ${formatUgx(status.setting.balanceAlarmUgx)}. Top it up so codes and receipts keep going out.`,
    );
  }
  return lines;
}

/** Admin Overview: texts sent against the SMS budget, the alarm, and the budget itself (decision 0201). */
export function SmsBudgetCard() {
  const status = useSmsBudgetStatus();
  const data = status.data;
  const alarms = data ? alarmLines(data) : [];
  return (
    <Card>
      <CardTitle>SMS budget</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Every text costs money. Past a ceiling, codes are refused with "try again later" and other texts wait in the
        outbox; nothing is lost.
      </p>
      <div aria-live="polite">
        {alarms.length > 0 && (
          <div
            role="alert"
            className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            <p className="font-semibold">SMS budget alarm</p>
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {alarms.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {status.isError && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {errorMessage(status.error, 'The SMS budget could not be loaded.')}{' '}
          <button type="button" className="underline" onClick={() => void status.refetch()}>
            Retry
          </button>
        </p>
      )}
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-left text-sm" aria-busy={status.isPending || undefined}>
          <caption className="sr-only">Texts sent this hour and today, against their ceilings</caption>
          <thead className="text-stone-600 dark:text-stone-400">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Purpose
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                This hour
              </th>
              <th scope="col" className="py-1 font-medium">
                Today
              </th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {(data?.purposes ?? []).map((p) => (
              <tr key={p.purpose} className="border-t border-stone-200 dark:border-stone-700">
                <th scope="row" className="py-1.5 pr-3 font-normal">
                  {PURPOSE_NAMES[p.purpose]}
                  {p.reached && <span className="ml-1 font-semibold text-amber-800 dark:text-amber-300">(full)</span>}
                </th>
                <td className="py-1.5 pr-3">
                  {count(p.hour.sent)} of {count(p.hour.ceiling)}
                </td>
                <td className="py-1.5">
                  {count(p.day.sent)} of {count(p.day.ceiling)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <SmsBudgetForm />
    </Card>
  );
}
