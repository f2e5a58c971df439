import { formatBytes, formatUgx, type PhoneToPhoneFigures } from '@filamu/shared';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { formatCount } from './format.ts';

/**
 * Films moved phone to phone in the chosen range (issue 19/22 §5): how many came from another phone (and from agents'
 * phones), and the data — in bytes and in UGX at the operator's price — that saved the people who received them.
 */
export function PhoneToPhoneCard({ figures, days }: { figures: PhoneToPhoneFigures | undefined; days: number }) {
  const facts = figures
    ? [
        { label: 'Films received from a phone', value: formatCount(figures.films), detail: null },
        { label: 'From agents’ phones', value: formatCount(figures.fromAgents), detail: null },
        { label: 'Data saved', value: figures.savedBytes > 0 ? formatBytes(figures.savedBytes) : 'None', detail: null },
        {
          label: 'Saved subscribers',
          value: figures.savedUgx > 0 ? `≈ ${formatUgx(figures.savedUgx)}` : 'UGX 0',
          detail: null,
        },
        {
          label: 'Plans bought after a received film',
          value: formatCount(figures.plansAfter),
          detail: formatUgx(figures.plansAfterUgx),
        },
      ]
    : [];
  return (
    <Card role="region" aria-labelledby="phone-to-phone">
      <CardTitle id="phone-to-phone" className="mb-1">
        Films moved phone to phone
      </CardTitle>
      <p className="mb-4 text-sm text-stone-600 dark:text-stone-400">
        In the last {days} days: films sent as a file or between phones and unlocked with the receiver&apos;s own plan,
        so their data was not spent (UGX at your price per GB), and the plans people bought for a film that was waiting
        on their phone.
      </p>
      {figures ? (
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {facts.map(({ label, value, detail }) => (
            <div key={label} className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
              <dt className="text-sm text-stone-600 dark:text-stone-300">{label}</dt>
              <dd className="text-xl font-bold tabular-nums">{value}</dd>
              {detail && <dd className="text-xs text-stone-600 dark:text-stone-300">{detail}</dd>}
            </div>
          ))}
        </dl>
      ) : (
        <p role="status" className="text-sm text-stone-600 dark:text-stone-400">
          Loading…
        </p>
      )}
    </Card>
  );
}
