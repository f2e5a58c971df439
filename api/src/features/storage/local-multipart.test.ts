import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stagedUploads } from './local-multipart.ts';
import { pendingUploads } from './local-objects.ts';
import { eventually, type RunningLocalFiles, startLocalFiles } from './local.testing.ts';
import { newObjectKey, UnknownUploadError } from './storage.ts';

/** Multipart uploads on the local driver over loopback: parts that survive drops, assembled byte-exact. */

const PART = 256 * 1024;
let files: RunningLocalFiles;

beforeAll(async () => {
  files = await startLocalFiles();
});

afterAll(async () => {
  await files?.close();
});

const multipart = () => files.storage.multipart!;

async function startUpload(partSize = PART) {
  const key = newObjectKey('movies', 'video/mp4')!;
  const uploadId = await multipart().create(key, 'video/mp4', { partSize });
  const link = async (partNumber: number, ttl = 900) =>
    files.absolute(await multipart().presignPart(key, uploadId, partNumber, ttl));
  return { key, uploadId, link };
}

async function putPart(url: string, body: Uint8Array) {
  // Untyped, as a browser sends `file.slice()`.
  const response = await fetch(url, { method: 'PUT', body });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), json: text ? JSON.parse(text) : null };
}

/** A part PUT whose connection dies after `sent` of its bytes, as on office Wi-Fi. */
async function cutOffPut(url: string, body: Buffer, sent: number) {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `PUT ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body.subarray(0, sent));
  await eventually(async () => (await pendingUploads(files.dir)).length === 1);
  socket.destroy();
  await eventually(async () => (await pendingUploads(files.dir)).length === 0);
}

const movie = (size: number) => randomBytes(size);
const slices = (bytes: Buffer, size = PART) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

describe('local multipart uploads', () => {
  it('assembles parts sent in any order into exactly the movie, and clears the staging folder', async () => {
    const bytes = movie(2 * PART + 1234);
    const upload = await startUpload();
    const parts = slices(bytes);
    const etags: { partNumber: number; etag: string }[] = [];
    for (const partNumber of [3, 1, 2]) {
      const res = await putPart(await upload.link(partNumber), parts[partNumber - 1]!);
      expect(res.status).toBe(200);
      expect(res.etag).toMatch(/^".+"$/);
      etags.push({ partNumber, etag: res.etag! });
    }
    expect(await files.storage.head(upload.key)).toBeNull();
    await multipart().complete(upload.key, upload.uploadId, etags);
    expect(readFileSync(join(files.dir, upload.key)).equals(bytes)).toBe(true);
    expect(await stagedUploads(files.dir)).toEqual([]);
    expect(await pendingUploads(files.dir)).toEqual([]);
  });

  it('survives a part cut off mid-body: the re-sent part completes into a byte-exact movie', async () => {
    const bytes = movie(2 * PART + 99);
    const parts = slices(bytes);
    const upload = await startUpload();
    const first = await putPart(await upload.link(1), parts[0]!);
    const url2 = await upload.link(2);
    await cutOffPut(url2, parts[1]!, PART / 2);
    // The cut-off part left nothing to assemble: completing now names a part that was never received.
    const third = await putPart(await upload.link(3), parts[2]!);
    await expect(
      multipart().complete(upload.key, upload.uploadId, [
        { partNumber: 1, etag: first.etag! },
        { partNumber: 2, etag: '"x"' },
        { partNumber: 3, etag: third.etag! },
      ]),
    ).rejects.toThrow(/part 2 was never received/);
    const second = await putPart(url2, parts[1]!);
    expect(second.status).toBe(200);
    await multipart().complete(upload.key, upload.uploadId, [
      { partNumber: 3, etag: third.etag! },
      { partNumber: 1, etag: first.etag! },
      { partNumber: 2, etag: second.etag! },
    ]);
    expect(readFileSync(join(files.dir, upload.key)).equals(bytes)).toBe(true);
  });

  it('lets a stored part be re-sent (the new bytes win) and refuses an ETag list naming the old one', async () => {
    const upload = await startUpload();
    const url = await upload.link(1);
    const old = await putPart(url, movie(100));
    const fresh = movie(120);
    const replaced = await putPart(url, fresh);
    expect(replaced.status).toBe(200);
    expect(replaced.etag).not.toBe(old.etag);
    await expect(
      multipart().complete(upload.key, upload.uploadId, [{ partNumber: 1, etag: old.etag! }]),
    ).rejects.toThrow(/does not match its ETag/);
    expect(await files.storage.head(upload.key)).toBeNull();
    await multipart().complete(upload.key, upload.uploadId, [{ partNumber: 1, etag: replaced.etag! }]);
    expect(readFileSync(join(files.dir, upload.key)).equals(fresh)).toBe(true);
  });

  it('refuses a part over the part size with 413, declared or chunked, keeping nothing', async () => {
    const upload = await startUpload(64 * 1024);
    const declared = await putPart(await upload.link(1), movie(64 * 1024 + 1));
    expect(declared.status).toBe(413);
    expect(declared.json.error.code).toBe('payload_too_large');
    const url = await upload.link(2);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'PUT' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.write(movie(40 * 1024));
      req.write(movie(40 * 1024));
    });
    expect(status).toBe(413);
    await eventually(async () => (await pendingUploads(files.dir)).length === 0);
    await expect(multipart().complete(upload.key, upload.uploadId, [{ partNumber: 1, etag: '"x"' }])).rejects.toThrow(
      /never received/,
    );
  });

  it('binds the upload id and part number into the signature, and expires part links', async () => {
    const upload = await startUpload();
    const other = await startUpload();
    const url = new URL(await upload.link(1));
    const renumbered = new URL(url);
    renumbered.searchParams.set('part', '2');
    expect((await putPart(renumbered.toString(), movie(10))).status).toBe(403);
    const moved = new URL(url);
    moved.searchParams.set('upload', other.uploadId);
    expect((await putPart(moved.toString(), movie(10))).status).toBe(403);
    const unbound = new URL(url);
    unbound.searchParams.delete('part');
    expect((await putPart(unbound.toString(), movie(10))).status).toBe(403);
    // An upload id is bound to its key: it cannot mint links for another one.
    await expect(multipart().presignPart(other.key, upload.uploadId, 1, 60)).rejects.toBeInstanceOf(UnknownUploadError);

    const expiring = await upload.link(2, 60);
    files.clock.advance(61_000);
    const expired = await putPart(expiring, movie(10));
    expect(expired.status).toBe(403);
    expect(expired.json.error.message).toBe('This link is invalid or has expired.');
  });

  it('abort discards every part; the upload then refuses parts and completion, and a second abort is fine', async () => {
    const upload = await startUpload();
    const url = await upload.link(1);
    const part = await putPart(url, movie(50));
    expect((await stagedUploads(files.dir)).includes(upload.uploadId)).toBe(true);
    await multipart().abort(upload.key, upload.uploadId);
    expect((await stagedUploads(files.dir)).includes(upload.uploadId)).toBe(false);
    const late = await putPart(url, movie(50));
    expect(late.status).toBe(404);
    expect(late.json.error.message).toBe('This upload has ended or was cancelled. Start the upload again.');
    await expect(
      multipart().complete(upload.key, upload.uploadId, [{ partNumber: 1, etag: part.etag! }]),
    ).rejects.toBeInstanceOf(UnknownUploadError);
    await multipart().abort(upload.key, upload.uploadId);
    await expect(multipart().abort(upload.key, 'not-an-upload')).rejects.toBeInstanceOf(UnknownUploadError);
    expect(await files.storage.head(upload.key)).toBeNull();
  });
});
