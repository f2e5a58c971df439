import { FILM_NONCE_BYTES, FILM_TAKEN_DOWN, fromBase64url, LICENCE_ELSEWHERE } from '@filamu/shared';
import { licenceStanding } from '../../licences/film-key.ts';
import { movieFile } from '../engine/opfs.ts';
import type { LocalDownload } from '../engine/record.ts';
import { getDownload } from '../engine/store.ts';
import { filmResponse, type FilmSource } from './film-stream.ts';
import { recordKeyOfPlayPath } from './play-address.ts';

/**
 * The service worker's side of playing an encrypted film (decision 0232): a request to a play address is answered
 * from the film's file on this phone, decrypted with the key of its licence. Whatever stops it is answered 403 or
 * 404 with a line of text; the Play screen checks the same things first and says them to the person, so the player
 * meets these only when something changed under it (the licence revoked, the file cleared by the browser).
 */

export interface PlayDeps {
  record: (key: string) => Promise<LocalDownload | undefined>;
  file: (key: string) => Promise<FilmSource>;
}

const onThisPhone: PlayDeps = { record: getDownload, file: movieFile };

const refusal = (status: 403 | 404, text: string): Response =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

const NOT_HERE = 'This film is not on this phone.';
const CANNOT_OPEN = 'This copy of the film could not be opened.';

export async function answerPlay(request: Request, deps: PlayDeps = onThisPhone): Promise<Response> {
  const key = recordKeyOfPlayPath(new URL(request.url).pathname);
  const record = key ? await deps.record(key).catch(() => undefined) : undefined;
  if (!key || !record || record.state !== 'complete' || !record.fileNonce) return refusal(404, NOT_HERE);
  let nonce: Uint8Array;
  try {
    nonce = fromBase64url(record.fileNonce);
  } catch {
    return refusal(404, CANNOT_OPEN);
  }
  if (nonce.length !== FILM_NONCE_BYTES) return refusal(404, CANNOT_OPEN);

  const standing = await licenceStanding(record.ownerId, record.movieId);
  if (!standing.playable) {
    if (standing.why === 'taken_down') return refusal(403, FILM_TAKEN_DOWN);
    if (standing.why === 'deleted') return refusal(403, 'The account this film was saved for is gone.');
    return refusal(403, LICENCE_ELSEWHERE);
  }
  let file: FilmSource;
  try {
    file = await deps.file(key);
  } catch {
    return refusal(404, NOT_HERE);
  }
  if (file.size === 0) return refusal(404, NOT_HERE);
  let filmKey: CryptoKey;
  try {
    filmKey = await standing.filmKey();
  } catch {
    return refusal(403, CANNOT_OPEN);
  }
  return filmResponse(file, filmKey, nonce, request.headers.get('Range'));
}
