import { useId, useSyncExternalStore } from 'react';
import { fieldClasses } from '../../../components/ui/Input.tsx';
import { knownCapableSmall, onCapableSmallKnown } from '../hevc-support.ts';
import { setSmallFiles, useDownloadSettings } from '../settings.ts';
import type { SmallFiles } from '../sizes.ts';
import { useDownloadsT } from '../messages.ts';

/**
 * "Small files" (decision 0252): where the H.264 Small is chosen on a phone that plays the HEVC one — for someone who
 * passes films on to other phones (issue 19/22), which may not play HEVC. Not shown on a phone without HEVC: there
 * every Small already plays on every phone, so there is nothing to choose.
 */
export function SmallFilesSetting() {
  const t = useDownloadsT();
  const id = useId();
  const settings = useDownloadSettings();
  const capable = useSyncExternalStore(onCapableSmallKnown, knownCapableSmall, () => null);
  if (capable !== 'small-hevc') return null;
  return (
    <div className="py-3">
      <label htmlFor={id} className="font-semibold">
        {t('downloads.settings.small')}
      </label>
      <p id={`${id}-hint`} className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">
        {t('downloads.settings.small.hint')}
      </p>
      <select
        id={id}
        aria-describedby={`${id}-hint`}
        value={settings.smallFiles}
        onChange={(e) => setSmallFiles(e.target.value as SmallFiles)}
        className={`${fieldClasses} mt-2 border-stone-300 dark:border-stone-700`}
      >
        <option value="this-phone">{t('downloads.settings.small.thisPhone')}</option>
        <option value="every-phone">{t('downloads.settings.small.everyPhone')}</option>
      </select>
    </div>
  );
}
