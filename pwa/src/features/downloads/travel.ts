import { movieFile } from './engine/opfs.ts';
import type { LocalDownload } from './engine/record.ts';

/**
 * What a film needs to travel from this phone to another and to arrive on one (issue 19/22): the one door the
 * phone-to-phone feature comes through, so how downloads keep films can change without it noticing.
 */

export { claimsOfManifest } from './film-file.ts';
export { manifestFor, NEEDS_A_CONNECTION } from './film-manifest.ts';
export { admitReceivedFilm, finishReceivedFilm, ReceivingFilm, receivedSoFar } from './receive-film.ts';
export { EnglishLocked, OutcomeNote, type ReceivedOutcome } from './components/ReceivedFilmNotes.tsx';

/** The film as this phone holds it (encrypted), backed by disk: read in slices, never whole into memory. */
export const heldFilm = (record: Pick<LocalDownload, 'key'>): Promise<File> => movieFile(record.key);
