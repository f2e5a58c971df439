import { createCipheriv, randomBytes, randomInt } from 'node:crypto';
import { filmCounterBlock } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { readRange } from './byte-range.ts';
import { decryptedStream, filmResponse, type FilmSource } from './film-stream.ts';

/**
 * The service worker's film answers (decision 0232) against Node's own AES-128-CTR, as the server encrypts: every
 * answer must decrypt to exactly the plain bytes it names, with the headers a media element relies on.
 */
const CHUNK = 1000; // small, so a few KB of film take many chunks and unaligned chunk edges
const plain = randomBytes(10_007);
const rawKey = randomBytes(16);
const nonce = new Uint8Array(randomBytes(8));
const cipher = createCipheriv('aes-128-ctr', rawKey, filmCounterBlock(nonce, 0));
const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
const key = await crypto.subtle.importKey('raw', rawKey, { name: 'AES-CTR' }, false, ['decrypt']);

/** The encrypted file, counting the bytes read from it. */
function countingFile(bytes: Uint8Array) {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
  const reads: [number, number][] = [];
  const source: FilmSource = {
    size: blob.size,
    slice: (start?: number, end?: number) => {
      reads.push([start ?? 0, end ?? blob.size]);
      return blob.slice(start, end);
    },
  };
  return { source, reads };
}

async function answer(range: string | null) {
  const response = filmResponse(countingFile(encrypted).source, key, nonce, range, CHUNK);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('an encrypted film played through the service worker', () => {
  it('answers a request without Range with the whole film, decrypted', async () => {
    const { response, body } = await answer(null);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Length')).toBe(String(plain.length));
    expect(response.headers.get('Accept-Ranges')).toBe('bytes');
    expect(response.headers.get('Content-Type')).toBe('video/mp4');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('Content-Range')).toBeNull();
    expect(body.equals(plain)).toBe(true);
  });

  it('answers random ranges, unaligned at both ends, with exactly their plain bytes', async () => {
    for (let run = 0; run < 40; run++) {
      const start = randomInt(plain.length);
      const end = randomInt(start, plain.length);
      const { response, body } = await answer(`bytes=${start}-${end}`);
      expect(response.status).toBe(206);
      expect(response.headers.get('Content-Range')).toBe(`bytes ${start}-${end}/${plain.length}`);
      expect(response.headers.get('Content-Length')).toBe(String(end - start + 1));
      expect(response.headers.get('Accept-Ranges')).toBe('bytes');
      expect(response.headers.get('Content-Type')).toBe('video/mp4');
      expect(body.equals(plain.subarray(start, end + 1)), `bytes=${start}-${end}`).toBe(true);
    }
  });

  it('answers an open-ended range to the end, a suffix range, the last byte, and an end past the film', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-', 0, plain.length - 1],
      ['bytes=4321-', 4321, plain.length - 1],
      ['bytes=-777', plain.length - 777, plain.length - 1],
      ['bytes=-99999', 0, plain.length - 1],
      [`bytes=${plain.length - 1}-`, plain.length - 1, plain.length - 1],
      [`bytes=${plain.length - 1}-${plain.length - 1}`, plain.length - 1, plain.length - 1],
      ['bytes=-1', plain.length - 1, plain.length - 1],
      ['bytes=17-1000000', 17, plain.length - 1],
      ['BYTES = 5 - 9', 5, 9],
    ];
    for (const [range, start, end] of cases) {
      const { response, body } = await answer(range);
      expect(response.status, range).toBe(206);
      expect(response.headers.get('Content-Range'), range).toBe(`bytes ${start}-${end}/${plain.length}`);
      expect(response.headers.get('Content-Length'), range).toBe(String(end - start + 1));
      expect(body.equals(plain.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 with the film’s size for a range past its end, and reads nothing', async () => {
    for (const range of [`bytes=${plain.length}-`, `bytes=${plain.length + 5}-${plain.length + 9}`, 'bytes=-0']) {
      const file = countingFile(encrypted);
      const response = filmResponse(file.source, key, nonce, range, CHUNK);
      expect(response.status, range).toBe(416);
      expect(response.headers.get('Content-Range'), range).toBe(`bytes */${plain.length}`);
      expect((await response.arrayBuffer()).byteLength).toBe(0);
      expect(file.reads).toEqual([]);
    }
  });

  it('ignores a Range it cannot read, as the RFC allows, and answers the whole film', async () => {
    for (const range of [
      'bytes=5-2',
      'bytes=0-1,4-5',
      'items=0-5',
      'bytes=abc',
      'bytes=1-2-3',
      `bytes=${'9'.repeat(200)}-`,
    ]) {
      const { response, body } = await answer(range);
      expect(response.status, range).toBe(200);
      expect(body.equals(plain), range).toBe(true);
    }
  });

  it('reads the file a chunk at a time, only as the player takes them, and nothing after a cancel', async () => {
    const file = countingFile(encrypted);
    const stream = decryptedStream(file.source, key, nonce, 1234, plain.length, CHUNK);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(file.reads).toEqual([]); // nothing before the player reads
    const reader = stream.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).equals(plain.subarray(1234, 1234 + CHUNK))).toBe(true);
    expect(file.reads).toEqual([[1234, 1234 + CHUNK]]);
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(file.reads).toHaveLength(1);
  });

  it('never reads more than a chunk at once, however long the range', async () => {
    const file = countingFile(encrypted);
    const body = await new Response(decryptedStream(file.source, key, nonce, 3, plain.length, CHUNK)).arrayBuffer();
    expect(Buffer.from(body).equals(plain.subarray(3))).toBe(true);
    expect(Math.max(...file.reads.map(([a, b]) => b - a))).toBe(CHUNK);
    expect(file.reads.length).toBe(Math.ceil((plain.length - 3) / CHUNK));
  });
});

describe('reading a Range header', () => {
  it('clamps, refuses and ignores as RFC 9110 says', () => {
    expect(readRange(null, 100)).toEqual({ kind: 'whole' });
    expect(readRange('bytes=0-0', 100)).toEqual({ kind: 'part', start: 0, end: 0 });
    expect(readRange('bytes=90-200', 100)).toEqual({ kind: 'part', start: 90, end: 99 });
    expect(readRange('bytes=-200', 100)).toEqual({ kind: 'part', start: 0, end: 99 });
    expect(readRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(readRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(readRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(readRange('bytes=+1-5', 100)).toEqual({ kind: 'whole' });
    expect(readRange('bytes=1.5-5', 100)).toEqual({ kind: 'whole' });
    expect(readRange(`bytes=0-${'1'.repeat(17)}`, 100)).toEqual({ kind: 'whole' });
    expect(readRange(`bytes=0-${' '.repeat(1000)}`, 100)).toEqual({ kind: 'whole' });
  });
});
