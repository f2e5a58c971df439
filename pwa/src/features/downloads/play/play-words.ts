import { FILM_TAKEN_DOWN, LICENCE_ELSEWHERE, type LicenceRevokedReason } from '@filamu/shared';
import { downloadsT, type DownloadsMessageId } from '../messages.ts';

/**
 * Why an encrypted film on this phone cannot play, and what the Play screen says (decision 0232): the reason in
 * plain words and what the person can do about it — never a player's codec error.
 */
export type CannotPlay =
  /** No licence here, or it moved to another phone: it can be brought back here. */
  | 'elsewhere'
  | 'taken_down'
  /** The account the film was saved for was deleted. */
  | 'deleted'
  /** No licence kept here, and asking Filamu for it failed (offline, or signed out). */
  | 'needs-licence'
  /** The service worker does not control the page yet, so nothing can answer the player. */
  | 'no-worker'
  /** The browser cleared the file. */
  | 'missing'
  /** The player could not read what it was given. */
  | 'broken-copy';

export interface CannotPlayWords {
  title: string;
  text: string;
}

export const CANNOT_PLAY_WORDS: Record<CannotPlay, CannotPlayWords> = {
  elsewhere: {
    title: LICENCE_ELSEWHERE,
    text: 'You can bring it to this phone. It then stops playing on the other phone.',
  },
  taken_down: {
    title: 'This film can no longer play',
    text: `${FILM_TAKEN_DOWN} You can delete it from My Downloads to free space.`,
  },
  deleted: {
    title: 'The account for this film is gone',
    text: 'The Filamu account this film was saved for was deleted, so it can no longer play here.',
  },
  'needs-licence': {
    title: 'Connect once to play this film',
    text: 'This film needs its licence from Filamu, and it did not reach this phone. Connect to the internet, then try again.',
  },
  'no-worker': {
    title: 'Reload Filamu to play this film',
    text: 'Filamu is still getting ready on this phone. Reload it, then open the film again.',
  },
  missing: {
    title: 'The movie file is not on this phone',
    text: 'The browser may have cleared it to free space. Delete it from My Downloads to tidy up.',
  },
  'broken-copy': {
    title: 'This copy of the film could not be opened',
    text: 'Try again. If it still does not play, delete it from My Downloads and download it again.',
  },
};

/** A licence that does not hold, in the Play screen's terms: one that moved is brought back like a missing one. */
const CANNOT_PLAY_IDS: Record<CannotPlay, { title: DownloadsMessageId; text: DownloadsMessageId }> = {
  elsewhere: { title: 'downloads.play.elsewhere.title', text: 'downloads.play.elsewhere.text' },
  taken_down: { title: 'downloads.play.takenDown.title', text: 'downloads.play.takenDown.text' },
  deleted: { title: 'downloads.play.deleted.title', text: 'downloads.play.deleted.text' },
  'needs-licence': { title: 'downloads.play.needsLicence.title', text: 'downloads.play.needsLicence.text' },
  'no-worker': { title: 'downloads.play.noWorker.title', text: 'downloads.play.noWorker.text' },
  missing: { title: 'downloads.play.missing.title', text: 'downloads.play.missing.text' },
  'broken-copy': { title: 'downloads.play.brokenCopy.title', text: 'downloads.play.brokenCopy.text' },
};

/** `CANNOT_PLAY_WORDS` in the person's language. */
export function cannotPlayWords(why: CannotPlay): CannotPlayWords {
  const ids = CANNOT_PLAY_IDS[why];
  return { title: downloadsT(ids.title), text: downloadsT(ids.text) };
}

export function cannotPlayOf(why: 'none' | LicenceRevokedReason): CannotPlay {
  if (why === 'taken_down') return 'taken_down';
  if (why === 'deleted') return 'deleted';
  return 'elsewhere';
}

/** What a refused request for this film's licence means for playing it here. */
export function cannotPlayOfLicenceError(error: unknown): CannotPlay {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  if (code === 'licence_elsewhere') return 'elsewhere';
  if (code === 'forbidden') return 'taken_down';
  return 'needs-licence';
}
