import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { LabelledSwitch } from '../../../components/ui/Switch.tsx';
import { useSession } from '../../../lib/session.ts';
import { backgroundSupported } from '../background.ts';
import { knowsNetworkType, setDownloadSetting, useDownloadSettings, type Switches } from '../settings.ts';
import { useDownloadsT } from '../messages.ts';
import { DataSettings } from './DataSettings.tsx';

function SettingSwitch({ name, label, description }: { name: Switches; label: string; description: string }) {
  const settings = useDownloadSettings();
  return (
    <LabelledSwitch
      label={label}
      description={description}
      checked={settings[name]}
      onChange={(value) => setDownloadSetting(name, value)}
    />
  );
}

/**
 * How downloads behave on this phone: the size, the data price and "Delete after watching" everywhere; a switch that
 * needs the browser's help only where the browser can honour it.
 */
export function DownloadSettingsCard() {
  const t = useDownloadsT();
  const background = backgroundSupported();
  const wifi = knowsNetworkType();
  // Agents have no re-downloads (decision 0121): for them a removed film is gone from this phone for good.
  const agent = useSession().status === 'agent';
  return (
    <Card className="mt-6">
      <CardTitle>{t('downloads.settings.title')}</CardTitle>
      <div className="mt-1 divide-y divide-stone-200 dark:divide-stone-800">
        <DataSettings />
        {background && (
          <SettingSwitch
            name="background"
            label={t('downloads.settings.background')}
            description={t('downloads.settings.background.text')}
          />
        )}
        {wifi && (
          <SettingSwitch
            name="wifiOnly"
            label={t('downloads.settings.wifiOnly')}
            description={t('downloads.settings.wifiOnly.text')}
          />
        )}
        <SettingSwitch
          name="deleteWatched"
          label={t('downloads.settings.deleteWatched')}
          description={agent ? t('downloads.settings.deleteWatched.agent') : t('downloads.settings.deleteWatched.text')}
        />
      </div>
    </Card>
  );
}
