/**
 * How a film file is encrypted (decision 0229): AES-128 in counter mode over the whole file, the same length as the
 * plain file, so a byte range of the encrypted file is the same byte range of the film. One content key per title;
 * each stored file has its own 8-byte nonce, and the counter block of the 16-byte block at index `i` is
 * `nonce ‖ i` (64-bit big-endian). The server encrypts with Node's `aes-128-ctr` from the counter block of block 0;
 * the phone decrypts any range with WebCrypto, starting from the block that holds the range's first byte — no block
 * before it is read, so a seek anywhere in a 2 GB film costs one block.
 */

export const FILM_BLOCK_BYTES = 16;
export const FILM_NONCE_BYTES = 8;
export const FILM_KEY_BYTES = 16;

/** WebCrypto's key type, named so that the browser's DOM types and Node's web types both accept it. */
export type FilmKey = Parameters<typeof crypto.subtle.decrypt>[1];

/** The counter block of the block at `blockIndex` (a safe integer: a file is far below 2^53 blocks). */
export function filmCounterBlock(nonce: Uint8Array, blockIndex: number): Uint8Array<ArrayBuffer> {
  if (nonce.length !== FILM_NONCE_BYTES) throw new RangeError('A film nonce is 8 bytes.');
  if (!Number.isSafeInteger(blockIndex) || blockIndex < 0) throw new RangeError('Not a block index.');
  const block = new Uint8Array(FILM_BLOCK_BYTES);
  block.set(nonce, 0);
  new DataView(block.buffer).setBigUint64(FILM_NONCE_BYTES, BigInt(blockIndex));
  return block;
}

/**
 * The plain bytes of `encrypted`, which starts at byte `offset` of the film. `offset` need not be on a block: the
 * bytes are decrypted from the start of their block and the head is dropped.
 */
export async function decryptFilmRange(
  key: FilmKey,
  nonce: Uint8Array,
  offset: number,
  encrypted: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const head = offset % FILM_BLOCK_BYTES;
  const aligned = new Uint8Array(head + encrypted.length);
  aligned.set(encrypted, head);
  const plain = await crypto.subtle.decrypt(
    // 64 counter bits: the block index never carries into the nonce.
    { name: 'AES-CTR', counter: filmCounterBlock(nonce, (offset - head) / FILM_BLOCK_BYTES), length: 64 },
    key,
    aligned,
  );
  return new Uint8Array(plain, head);
}
