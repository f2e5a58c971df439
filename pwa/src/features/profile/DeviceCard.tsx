import type { UserProfile } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { SmartphoneIcon } from '../../components/ui/icons.tsx';
import { deviceName, sessionSummary } from './device.ts';
import { useProfileT } from './messages.ts';

/**
 * Profile → Security → Device Management: the device this session signed in on, as browser, system and
 * since when (decision 0034) — never the raw device id, which means nothing to a person.
 */
export function DeviceCard({ user }: { user: UserProfile }) {
  const t = useProfileT();
  const device = user.currentDevice;
  return (
    <Card>
      <CardTitle>{t('profile.device.title')}</CardTitle>
      <div className="mt-4 flex items-start gap-3 rounded-xl border border-stone-200 p-4 dark:border-stone-800">
        <SmartphoneIcon className="mt-0.5 size-6 shrink-0 text-stone-500 dark:text-stone-400" />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="break-words font-semibold">
              {device ? deviceName(device) : t('profile.device.thisBrowser')}
            </span>
            <Badge tone="success">{t('profile.device.thisDevice')}</Badge>
          </p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {device ? sessionSummary(device, new Date()) : t('profile.device.unknown')}
          </p>
        </div>
      </div>
      <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">{t('profile.device.oneAtATime')}</p>
    </Card>
  );
}
