import type { MovieSize } from '@filamu/shared';
import { useMemo, useSyncExternalStore } from 'react';
import { capableSmall, knownCapableSmall, onCapableSmallKnown } from './hevc-support.ts';
import { downloadSettings, useDownloadSettings } from './settings.ts';
import { sizesForThisPhone, smallToOffer } from './sizes.ts';

/**
 * A movie's sizes as this phone is offered them (decision 0252): one Small — the HEVC one where the phone decodes it
 * in hardware and the person has not chosen "Works on every phone", else the H.264 one.
 */

/** The sizes on offer here; null for the few milliseconds the phone's decoder is being asked. */
export function usePhoneSizes(sizes: readonly MovieSize[]): MovieSize[] | null {
  const capable = useSyncExternalStore(onCapableSmallKnown, knownCapableSmall, () => null);
  const { smallFiles } = useDownloadSettings();
  return useMemo(
    () => (capable === null ? null : sizesForThisPhone(sizes, smallToOffer(capable, smallFiles))),
    [capable, smallFiles, sizes],
  );
}

/** The same, outside React (a default size starting a download without the dialog). */
export async function phoneSizes(sizes: readonly MovieSize[]): Promise<MovieSize[]> {
  const capable = await capableSmall();
  return sizesForThisPhone(sizes, smallToOffer(capable, downloadSettings().smallFiles));
}
