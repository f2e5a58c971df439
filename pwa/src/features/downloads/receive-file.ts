import { movieFileHandle, removeMovieFile } from './engine/opfs.ts';
import { recordKey } from './engine/record.ts';
import { copyVerifiedFilm, readFilmFile } from './film-file.ts';
import { type AdmitOptions, admitReceivedFilm, finishReceivedFilm, type ReceiveResult } from './receive-film.ts';

/**
 * "Open a film file" (issue 19/22, decision 0243): a `.filamu` file a friend or an agent sent through another app is
 * checked — its manifest signed by Filamu, then every 1 MiB chunk against it as it is copied into the app's storage —
 * and kept like a download. Its licence is then asked for as a received film, under the same rules as a download; a
 * film that cannot have one yet (no plan, no connection) waits on the phone and plays once it does.
 */

export type { ReceiveResult };

export type ReceiveStep =
  { step: 'checking' } | { step: 'copying'; doneBytes: number; totalBytes: number } | { step: 'licensing' };

export interface ReceiveOptions extends Pick<AdmitOptions, 'keepLockedEnglish'> {
  signal?: AbortSignal;
}

export async function receiveFilmFile(
  file: File,
  ownerId: string,
  onStep: (step: ReceiveStep) => void,
  { signal, keepLockedEnglish }: ReceiveOptions = {},
): Promise<ReceiveResult> {
  onStep({ step: 'checking' });
  const read = await readFilmFile(file, file.name);
  if (!read.ok) return { kind: 'refused', message: read.problem.message };
  const { claims, manifest } = read;
  const refusal = await admitReceivedFilm(claims, manifest, ownerId, { keepLockedEnglish });
  if (refusal) return refusal;

  const key = recordKey(ownerId, claims.mid);
  await removeMovieFile(key);
  const writable = await (await movieFileHandle(key, true)).createWritable();
  let copied: Awaited<ReturnType<typeof copyVerifiedFilm>>;
  try {
    copied = await copyVerifiedFilm(
      file,
      read,
      (chunk, position) => writable.write({ type: 'write', position, data: chunk }),
      {
        signal,
        onProgress: (doneBytes) => onStep({ step: 'copying', doneBytes, totalBytes: claims.bytes }),
      },
    );
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => undefined);
    await removeMovieFile(key);
    throw error;
  }
  if (!copied.ok) {
    await removeMovieFile(key);
    return { kind: 'refused', message: copied.problem.message };
  }
  return finishReceivedFilm(ownerId, claims, manifest, () => onStep({ step: 'licensing' }));
}
