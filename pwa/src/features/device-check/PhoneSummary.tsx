import { type DeviceCheckAnswers, phoneGetsHevcSmall, type PhoneDescription } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { useDeviceCheckT } from './messages.ts';

/** The phone at a glance: model, Android and Chrome, and the one answer that matters most. */
export function PhoneSummary({ phone, answers }: { phone: PhoneDescription; answers: DeviceCheckAnswers }) {
  const t = useDeviceCheckT();
  const hevc = phoneGetsHevcSmall(answers);
  const facts = [
    { key: 'phone', label: t('device-check.phone.model'), value: phone.model ?? t('device-check.phone.model.unknown') },
    { key: 'android', label: 'Android', value: phone.androidVersion ?? t('device-check.phone.android.unknown') },
    { key: 'chrome', label: 'Chrome', value: phone.chromeVersion ?? t('device-check.phone.chrome.unknown') },
  ];
  return (
    <Card role="region" aria-labelledby="this-phone" data-testid="phone-summary">
      <h2 id="this-phone" className="text-lg font-bold">
        {t('device-check.phone.title')}
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-4">
        {facts.map(({ key, label, value }) => (
          <div key={key} className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-300">{label}</dt>
            <dd className="font-bold [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
        <div className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
          <dt className="text-sm text-stone-600 dark:text-stone-300">HEVC Small</dt>
          <dd>
            <Badge tone={hevc ? 'success' : 'neutral'} className="text-sm">
              {hevc ? t('device-check.yes') : t('device-check.no')}
            </Badge>
          </dd>
        </div>
      </dl>
    </Card>
  );
}
