import { type Cipher, createCipheriv, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { FILM_NONCE_BYTES, filmCounterBlock } from '@filamu/shared';

/** A fresh nonce for each file written: one key per title, so two files of a title must never share a keystream. */
export function newFilmNonce(): Buffer {
  return randomBytes(FILM_NONCE_BYTES);
}

/**
 * The stream that encrypts a film from its first byte (decision 0229). Counter mode keeps the length, so sizes,
 * ranges and the delivered-bytes bookkeeping are the same for the encrypted file as for the plain one.
 */
export function filmEncryptor(key: Buffer, nonce: Buffer): Cipher {
  return createCipheriv('aes-128-ctr', key, filmCounterBlock(nonce, 0));
}

/** Writes `to`, the encrypted copy of `from`, in bounded memory whatever the size. */
export async function encryptFilmFile(from: string, to: string, key: Buffer, nonce: Buffer): Promise<void> {
  await pipeline(createReadStream(from), filmEncryptor(key, nonce), createWriteStream(to));
}

/** Writes `to`, the encrypted copy of the bytes `from` yields (a stored object being read), in bounded memory. */
export async function encryptFilmStream(
  from: NodeJS.ReadableStream,
  to: string,
  key: Buffer,
  nonce: Buffer,
  signal?: AbortSignal,
) {
  await pipeline(from, filmEncryptor(key, nonce), createWriteStream(to), { signal });
}
