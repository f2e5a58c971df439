/**
 * Download tonight's rules on a download record (issue 21/22, decision 0256): when a film for tonight may run, what a
 * hand on Pause or Resume does to it, and which committed bytes count as night bytes.
 */

/** The parts of a download record (record.ts) these rules read. */
interface NightFields {
  nightOnly?: boolean;
  nightUntil?: number;
  nightBytes?: number;
  bytesFromNetwork: number;
}

/** Why a film for tonight stopped at its window's end (the engine and night mode say the same). */
export const NIGHT_OVER = 'Paused when the night bundle ended: the rest downloads next night.';

/** Whether a film for tonight may not run at `now`: outside the window it was started in (or never started). */
export function outsideItsNight(record: Pick<NightFields, 'nightOnly' | 'nightUntil'>, now: number): boolean {
  return record.nightOnly === true && !(record.nightUntil !== undefined && now < record.nightUntil);
}

/** A film for tonight paused or resumed by the person is theirs again: spending day data on it is their choice. */
export function byHand(record: Pick<NightFields, 'nightOnly'>): { nightOnly?: false; nightUntil?: undefined } {
  return record.nightOnly ? { nightOnly: false, nightUntil: undefined } : {};
}

/**
 * How long after a window's end a commit still counts as night bytes: the transfer is stopped at the end, and its last
 * flush (of bytes that arrived before it) is written just after.
 */
const LAST_FLUSH_MS = 5000;

/** The bytes a `committed` event adds to the night count: those received while the film's night window was open. */
export function nightBytesAfter(record: NightFields, bytesFromNetwork: number, now: number): number | undefined {
  const grown = Math.max(0, bytesFromNetwork - record.bytesFromNetwork);
  if (grown === 0 || record.nightUntil === undefined || now >= record.nightUntil + LAST_FLUSH_MS) {
    return record.nightBytes;
  }
  return (record.nightBytes ?? 0) + grown;
}
