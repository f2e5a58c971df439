import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { LabelledSwitch } from '../../../components/ui/Switch.tsx';
import { useSession } from '../../../lib/session.ts';
import { backgroundSupported } from '../background.ts';
import { knowsNetworkType, setDownloadSetting, useDownloadSettings, type Switches } from '../settings.ts';
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
  const background = backgroundSupported();
  const wifi = knowsNetworkType();
  // Agents have no re-downloads (decision 0121): for them a removed film is gone from this phone for good.
  const agent = useSession().status === 'agent';
  return (
    <Card className="mt-6">
      <CardTitle>Download settings</CardTitle>
      <div className="mt-1 divide-y divide-stone-200 dark:divide-stone-800">
        <DataSettings />
        {background && (
          <SettingSwitch
            name="background"
            label="Keep downloading when the app is closed"
            description="New downloads continue in your browser's download manager, with a notification, even after you close Filamu."
          />
        )}
        {wifi && (
          <SettingSwitch
            name="wifiOnly"
            label="Download on Wi-Fi only"
            description="Downloads wait while you are on mobile data and carry on by themselves on Wi-Fi."
          />
        )}
        <SettingSwitch
          name="deleteWatched"
          label="Delete after watching"
          description={
            agent
              ? 'A movie you watch to the end (past 90%) is removed from this phone when you leave the player, to free space. Agent accounts cannot download a movie again.'
              : 'A movie you watch to the end (past 90%) is removed from this phone when you leave the player, to free space. Getting it back later uses one of your monthly re-downloads.'
          }
        />
      </div>
    </Card>
  );
}
