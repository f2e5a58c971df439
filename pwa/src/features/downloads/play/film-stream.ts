import { decryptFilmRange, type FilmKey } from '@filamu/shared';
import { readRange } from './byte-range.ts';

/**
 * The service worker's answer to the player's request for an encrypted film (decisions 0229, 0232): the bytes asked
 * for, read from the file on the phone and decrypted a chunk at a time as the player takes them. Nothing is read
 * before the player asks for it (the stream keeps no chunk in reserve), so memory stays flat whatever the film's
 * size, and a seek — the player drops one answer and asks again — stops the old read at once. The plain bytes go
 * only to the player: never to a cache (`no-store`), never to a file.
 */

/** 256 KB: a few milliseconds of reading and decrypting on a cheap phone, and a small fraction of a second of film. */
export const FILM_CHUNK_BYTES = 256 * 1024;

/** What the stream reads its bytes from: the film's `File` in OPFS (tests give a counting stand-in). */
export type FilmSource = Pick<Blob, 'size' | 'slice'>;

/** The plain bytes `[start, end)` of the film, read and decrypted one chunk per pull. */
export function decryptedStream(
  source: FilmSource,
  key: FilmKey,
  nonce: Uint8Array,
  start: number,
  end: number,
  chunkBytes = FILM_CHUNK_BYTES,
): ReadableStream<Uint8Array> {
  let position = start;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (position >= end) return controller.close();
        const stop = Math.min(end, position + chunkBytes);
        const encrypted = new Uint8Array(await source.slice(position, stop).arrayBuffer());
        const plain = await decryptFilmRange(key, nonce, position, encrypted);
        // A seek cancels while a chunk is read: it goes nowhere.
        if (cancelled) return;
        position = stop;
        controller.enqueue(plain);
        if (position >= end) controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    // Pulled only when the player reads: no chunk read ahead, none read after a cancel.
    { highWaterMark: 0 },
  );
}

const headersOf = (extra: Record<string, string>): Headers =>
  new Headers({ 'Accept-Ranges': 'bytes', 'Content-Type': 'video/mp4', 'Cache-Control': 'no-store', ...extra });

/**
 * The answer to a request carrying `rangeHeader` (null: none): 200 with the whole film, 206 with the range asked for
 * (open-ended and suffix ranges included, each streamed in full), or 416 for a range past the end.
 */
export function filmResponse(
  source: FilmSource,
  key: FilmKey,
  nonce: Uint8Array,
  rangeHeader: string | null,
  chunkBytes = FILM_CHUNK_BYTES,
): Response {
  const total = source.size;
  const ask = readRange(rangeHeader, total);
  if (ask.kind === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: headersOf({ 'Content-Range': `bytes */${total}` }) });
  }
  if (ask.kind === 'whole') {
    return new Response(decryptedStream(source, key, nonce, 0, total, chunkBytes), {
      status: 200,
      headers: headersOf({ 'Content-Length': String(total) }),
    });
  }
  const { start, end } = ask;
  return new Response(decryptedStream(source, key, nonce, start, end + 1, chunkBytes), {
    status: 206,
    headers: headersOf({
      'Content-Length': String(end + 1 - start),
      'Content-Range': `bytes ${start}-${end}/${total}`,
    }),
  });
}
