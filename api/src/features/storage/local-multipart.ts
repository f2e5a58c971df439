import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../../lib/clock.ts';
import {
  createTempFile,
  etagOf,
  isMissing,
  objectPath,
  removeQuietly,
  statObject,
  writeAtomically,
} from './local-objects.ts';
import { expiryFrom, signedQuery } from './local-signing.ts';
import { copyAtMost } from './local-upload.ts';
import { type MultipartStorage, UnknownUploadError } from './storage.ts';

/**
 * Multipart uploads for the local driver, so a dropped connection costs one part, not a 2 GB movie. Each upload
 * has a staging folder `dir/.multipart/<uploadId>/` holding `upload.json` (its key and part size) and one file per
 * finished part (`<n>.part`). A part is received into a temp file and renamed over its slot, so a re-sent part
 * replaces the old one whole and a cut-off one leaves the old one (or none). `complete` concatenates the parts in
 * order into a temp file and links it under the key (never half an object), then drops the staging folder.
 */

export const MULTIPART_FOLDER = '.multipart';
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a `.multipart/` entry is named like a staging folder this driver creates. */
export const isUploadId = (name: string): boolean => UPLOAD_ID.test(name);

interface UploadRecord {
  key: string;
  contentType: string;
  partSize: number;
}

export interface LocalMultipartOptions {
  dir: string;
  secret: string;
  clock: Clock;
  /** `/files/<key>?…` */
  linkTo(key: string, query: string): string;
}

function stagingOf(dir: string, uploadId: string): string {
  if (!UPLOAD_ID.test(uploadId)) throw new UnknownUploadError();
  return join(dir, MULTIPART_FOLDER, uploadId);
}

const partPath = (staging: string, partNumber: number) => join(staging, `${partNumber}.part`);

/** The upload's record, checked against the key the caller names (an upload id never works for another key). */
async function readRecord(
  dir: string,
  key: string,
  uploadId: string,
): Promise<{ staging: string; record: UploadRecord }> {
  const staging = stagingOf(dir, uploadId);
  let record: UploadRecord;
  try {
    record = JSON.parse(await readFile(join(staging, 'upload.json'), 'utf8')) as UploadRecord;
  } catch (error) {
    if (isMissing(error)) throw new UnknownUploadError();
    throw error;
  }
  if (record.key !== key) throw new UnknownUploadError();
  return { staging, record };
}

export function createLocalMultipart(options: LocalMultipartOptions): MultipartStorage {
  const { dir, secret, clock } = options;

  return {
    async create(key, contentType, { partSize }) {
      if (!objectPath(dir, key)) throw new RangeError(`not a storage key: ${JSON.stringify(key)}`);
      if (!Number.isSafeInteger(partSize) || partSize < 1) throw new RangeError(`bad part size ${partSize}`);
      const uploadId = randomUUID();
      const staging = stagingOf(dir, uploadId);
      await mkdir(staging, { recursive: true });
      const record: UploadRecord = { key, contentType, partSize };
      await writeFile(join(staging, 'upload.json'), JSON.stringify(record), { flag: 'wx' });
      return uploadId;
    },

    async presignPart(key, uploadId, partNumber, expiresInSeconds) {
      const { record } = await readRecord(dir, key, uploadId);
      // No Content-Type is bound: a part is a slice of the movie, and browsers send slices untyped.
      const query = signedQuery(secret, {
        method: 'PUT',
        key,
        expires: expiryFrom(clock.now(), expiresInSeconds),
        grant: null,
        downloadName: null,
        contentType: null,
        maxBytes: record.partSize,
        uploadId,
        partNumber,
      });
      return options.linkTo(key, query);
    },

    async complete(key, uploadId, parts) {
      const { staging } = await readRecord(dir, key, uploadId);
      const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      // Opened first and checked through the handle, so a part re-sent meanwhile cannot slip in unchecked.
      const handles: FileHandle[] = [];
      try {
        for (const [index, part] of sorted.entries()) {
          if (part.partNumber !== index + 1) throw new Error(`part ${index + 1} is missing from the list`);
          const handle = await open(partPath(staging, part.partNumber), 'r').catch((error: unknown) => {
            if (isMissing(error)) throw new Error(`part ${part.partNumber} was never received; upload it again`);
            throw error;
          });
          handles.push(handle);
          // A part re-sent after the client noted its ETag has a new one: the list must name what is on disk.
          if (etagOf(await handle.stat({ bigint: true })) !== part.etag) {
            throw new Error(`part ${part.partNumber} does not match its ETag; upload it again`);
          }
        }
        await writeAtomically(dir, objectPath(dir, key)!, key, async (target) => {
          const buffer = Buffer.alloc(1024 * 1024);
          for (const source of handles) {
            for (;;) {
              const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
              if (bytesRead === 0) break;
              await target.write(buffer, 0, bytesRead);
            }
          }
        });
      } finally {
        await Promise.all(handles.map((handle) => handle.close().catch(() => {})));
      }
      await rm(staging, { recursive: true, force: true });
    },

    async abort(key, uploadId) {
      try {
        const { staging } = await readRecord(dir, key, uploadId);
        await rm(staging, { recursive: true, force: true });
      } catch (error) {
        // Already completed or aborted: nothing is left to discard, which is what abort wants (as on S3).
        if (error instanceof UnknownUploadError && UPLOAD_ID.test(uploadId)) return;
        throw error;
      }
    },
  };
}

/**
 * Receives one part (a signed part link was checked by the caller): streamed into a temp file, at most the
 * upload's part size, then renamed over the part's slot. Returns the part's ETag and size.
 */
export async function receivePart(options: {
  dir: string;
  key: string;
  uploadId: string;
  partNumber: number;
  maxBytes: number;
  body: Readable;
}): Promise<{ etag: string; size: number }> {
  const { staging } = await readRecord(options.dir, options.key, options.uploadId);
  const temp = await createTempFile(options.dir);
  try {
    await copyAtMost(options.body, temp.handle, options.maxBytes);
    await temp.handle.sync();
    await temp.handle.close();
    const path = partPath(staging, options.partNumber);
    await rename(temp.path, path);
    const stats = await statObject(path);
    if (!stats) throw new UnknownUploadError();
    return { etag: etagOf(stats), size: Number(stats.size) };
  } catch (error) {
    await temp.handle.close().catch(() => {});
    await removeQuietly(temp.path);
    // The staging folder vanished under us (aborted or completed meanwhile).
    if (isMissing(error)) throw new UnknownUploadError();
    throw error;
  }
}

/** Part files of uploads in progress (tests check aborted uploads leave none). */
export async function stagedUploads(dir: string): Promise<string[]> {
  try {
    return await readdir(join(dir, MULTIPART_FOLDER));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}
