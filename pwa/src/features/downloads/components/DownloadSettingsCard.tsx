import { Description, Field, Label, Switch } from '@headlessui/react';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { useSession } from '../../../lib/session.ts';
import { backgroundSupported } from '../background.ts';
import { knowsNetworkType, setDownloadSetting, useDownloadSettings, type Switches } from '../settings.ts';
import { DataSettings } from './DataSettings.tsx';

function SettingSwitch({ name, label, description }: { name: Switches; label: string; description: string }) {
  const settings = useDownloadSettings();
  const on = settings[name];
  return (
    <Field className="flex items-start justify-between gap-4 py-3">
      <span>
        <Label className="font-semibold">{label}</Label>
        <Description className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{description}</Description>
      </span>
      <Switch
        checked={on}
        onChange={(value) => setDownloadSetting(name, value)}
        className="group relative inline-flex h-7 w-12 shrink-0 items-center rounded-full bg-stone-300 transition-colors data-checked:bg-brand-700 dark:bg-stone-600 dark:data-checked:bg-brand-500"
      >
        <span className="inline-block size-5 translate-x-1 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-6" />
      </Switch>
    </Field>
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
