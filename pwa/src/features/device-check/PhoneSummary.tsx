import { type DeviceCheckAnswers, phoneGetsHevcSmall, type PhoneDescription } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { Card } from '../../components/ui/Card.tsx';

/** The phone at a glance: model, Android and Chrome, and the one answer that matters most. */
export function PhoneSummary({ phone, answers }: { phone: PhoneDescription; answers: DeviceCheckAnswers }) {
  const hevc = phoneGetsHevcSmall(answers);
  const facts = [
    { label: 'Phone', value: phone.model ?? 'Not said by this browser' },
    { label: 'Android', value: phone.androidVersion ?? 'Not Android, or not said' },
    { label: 'Chrome', value: phone.chromeVersion ?? 'Not Chrome, or not said' },
  ];
  return (
    <Card role="region" aria-labelledby="this-phone" data-testid="phone-summary">
      <h2 id="this-phone" className="text-lg font-bold">
        This phone
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-4">
        {facts.map(({ label, value }) => (
          <div key={label} className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-300">{label}</dt>
            <dd className="font-bold [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
        <div className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
          <dt className="text-sm text-stone-600 dark:text-stone-300">HEVC Small</dt>
          <dd>
            <Badge tone={hevc ? 'success' : 'neutral'} className="text-sm">
              {hevc ? 'Yes' : 'No'}
            </Badge>
          </dd>
        </div>
      </dl>
    </Card>
  );
}
