import { readLocal, writeLocal } from '../../../lib/local-storage.ts';
import { STORAGE_KEYS } from '../../../lib/storage-names.ts';
/**
 * The player's settings on this phone: volume, mute, speed (decision 0165) and the subtitle language (decision 0173)
 * stay as the person left them.
 */
const VOLUME_KEY = STORAGE_KEYS.playerVolume;
const MUTED_KEY = STORAGE_KEYS.playerMuted;
const RATE_KEY = STORAGE_KEYS.playerRate;
const SUBTITLES_KEY = STORAGE_KEYS.playerSubtitles;

export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

export interface PlayerPreferences {
  volume: number;
  muted: boolean;
  rate: number;
  /** The subtitle language chosen last (a language code), null for Off. */
  subtitles: string | null;
}

export function readPreferences(): PlayerPreferences {
  const volume = Number(readLocal(VOLUME_KEY));
  const rate = Number(readLocal(RATE_KEY));
  return {
    volume: readLocal(VOLUME_KEY) !== null && volume >= 0 && volume <= 1 ? volume : 1,
    muted: readLocal(MUTED_KEY) === '1',
    rate: (PLAYBACK_RATES as readonly number[]).includes(rate) ? rate : 1,
    subtitles: readLocal(SUBTITLES_KEY) || null,
  };
}

export function saveVolume(volume: number, muted: boolean): void {
  writeLocal(VOLUME_KEY, String(Math.round(volume * 100) / 100));
  writeLocal(MUTED_KEY, muted ? '1' : '0');
}

export function saveRate(rate: number): void {
  writeLocal(RATE_KEY, String(rate));
}

/** Remembers the subtitle language (null: Off) for every film: a Luganda speaker chooses Luganda once. */
export function saveSubtitles(language: string | null): void {
  writeLocal(SUBTITLES_KEY, language ?? '');
}
