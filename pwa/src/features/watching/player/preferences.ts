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

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or a full disk: the setting lasts for this visit only.
  }
}

export interface PlayerPreferences {
  volume: number;
  muted: boolean;
  rate: number;
  /** The subtitle language chosen last (a language code), null for Off. */
  subtitles: string | null;
}

export function readPreferences(): PlayerPreferences {
  const volume = Number(read(VOLUME_KEY));
  const rate = Number(read(RATE_KEY));
  return {
    volume: read(VOLUME_KEY) !== null && volume >= 0 && volume <= 1 ? volume : 1,
    muted: read(MUTED_KEY) === '1',
    rate: (PLAYBACK_RATES as readonly number[]).includes(rate) ? rate : 1,
    subtitles: read(SUBTITLES_KEY) || null,
  };
}

export function saveVolume(volume: number, muted: boolean): void {
  write(VOLUME_KEY, String(Math.round(volume * 100) / 100));
  write(MUTED_KEY, muted ? '1' : '0');
}

export function saveRate(rate: number): void {
  write(RATE_KEY, String(rate));
}

/** Remembers the subtitle language (null: Off) for every film: a Luganda speaker chooses Luganda once. */
export function saveSubtitles(language: string | null): void {
  write(SUBTITLES_KEY, language ?? '');
}
