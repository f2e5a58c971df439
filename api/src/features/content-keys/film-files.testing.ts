import { createReadStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fromBase64url } from '@filamu/shared';
import type { ObjectStorage } from '../storage/storage.ts';
import type { ContentKeys } from './content-keys.ts';
import { encryptFilmStream } from './film-encryption.ts';

/**
 * Tests: a plain copy of a stored encrypted film file, made the way a phone with the licence reads it (counter mode
 * is its own inverse: "encrypting" the encrypted bytes again from the same counter gives the plain ones).
 */
export async function plainCopyOf(
  storage: ObjectStorage,
  contentKeys: ContentKeys,
  file: { movieId: string; key: string; nonce: string },
): Promise<string> {
  const path = storage.localPath(file.key);
  const from = path
    ? createReadStream(path)
    : Readable.fromWeb(
        (await fetch(await storage.transcodeInput(file.key, 600))).body as import('node:stream/web').ReadableStream,
      );
  return plainCopyFrom(from, await contentKeys.keyOf(file.movieId), file.nonce);
}

/** Tests: a plain copy of an encrypted film read from `from`, given its title key and the file's nonce. */
export async function plainCopyFrom(from: Readable, titleKey: Buffer, nonce: string): Promise<string> {
  const to = join(await mkdtemp(join(tmpdir(), 'filamu-plain-')), 'plain.mp4');
  await encryptFilmStream(from, to, titleKey, Buffer.from(fromBase64url(nonce)));
  return to;
}
