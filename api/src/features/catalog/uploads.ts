import type { UploadUrlResponse } from '@filamu/shared';
import {
  MultipartAbortRequest,
  MultipartCompleteRequest,
  MultipartPartUrlsRequest,
  UploadUrlRequest,
} from '@filamu/shared';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import {
  type Folder,
  type MultipartStorage,
  newObjectKey,
  UnknownUploadError,
  type ObjectStorage,
} from '../storage/storage.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';

interface UploadDeps {
  storage: ObjectStorage;
  config: Config;
  clock: Clock;
}

const MIB = 1024 * 1024;
/** S3 allows at most 10,000 parts (of at least 5 MiB); the configured part size grows only past that. */
const MAX_PARTS = 10_000;

const TYPE_NAMES: Record<Folder, string> = {
  movies: 'Movies must be video files (MP4, WebM, MKV, MOV or 3GP).',
  thumbnails: 'Thumbnails must be JPEG, PNG or WebP images.',
};

const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(bytes % 1024 ** 3 === 0 ? 0 : 1)} GB`;
const megabytes = (bytes: number) => `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1)} MB`;

function maxUploadBytes(deps: { config: Config }, folder: Folder): number {
  return folder === 'movies' ? deps.config.storage.maxMovieBytes : deps.config.storage.maxThumbnailBytes;
}

/** `minPartSize` is the configured part size (16 MiB by default: a retried part stays cheap on a slow line). */
function partSizeFor(fileSize: number, minPartSize: number): number {
  return Math.max(minPartSize, Math.ceil(fileSize / MAX_PARTS / MIB) * MIB);
}

function expiresAt(deps: UploadDeps): string {
  return new Date(deps.clock.now().getTime() + deps.config.storage.uploadUrlTtlSeconds * 1000).toISOString();
}

async function partUrls(
  deps: UploadDeps,
  multipart: MultipartStorage,
  key: string,
  uploadId: string,
  numbers: number[],
) {
  const ttl = deps.config.storage.uploadUrlTtlSeconds;
  return Promise.all(
    numbers.map(async (partNumber) => ({
      partNumber,
      url: await multipart.presignPart(key, uploadId, partNumber, ttl),
    })),
  );
}

/**
 * An upload link for a file the admin picked, under a key the server generates (the file name is never
 * part of a path). Type and size are checked here and bound into the link; big movies on S3 go up in
 * parts so a dropped connection costs one part, not the whole file.
 */
export async function createUploadUrl(
  deps: UploadDeps,
  input: z.output<typeof UploadUrlRequest>,
): Promise<UploadUrlResponse> {
  const key = newObjectKey(input.folder, input.fileType);
  if (!key) throw new AppError('unsupported_media_type', TYPE_NAMES[input.folder]);
  const max = maxUploadBytes(deps, input.folder);
  if (input.fileSize > max) {
    const limit = input.folder === 'movies' ? gigabytes(max) : megabytes(max);
    throw new AppError(
      'payload_too_large',
      `${input.folder === 'movies' ? 'Movies' : 'Thumbnails'} are limited to ${limit}.`,
    );
  }
  const { multipart } = deps.storage;
  const { uploadUrlTtlSeconds, multipartThresholdBytes } = deps.config.storage;
  if (multipart && input.folder === 'movies' && input.fileSize > multipartThresholdBytes) {
    const partSize = partSizeFor(input.fileSize, deps.config.storage.multipartPartSizeBytes);
    const partCount = Math.ceil(input.fileSize / partSize);
    const uploadId = await multipart.create(key, input.fileType, { partSize });
    const numbers = Array.from({ length: partCount }, (_, i) => i + 1);
    return {
      s3Key: key,
      expiresAt: expiresAt(deps),
      presignedUrl: null,
      method: 'PUT',
      headers: {},
      multipart: { uploadId, partSize, partCount, parts: await partUrls(deps, multipart, key, uploadId, numbers) },
    };
  }
  const upload = await deps.storage.presignPut(key, {
    contentType: input.fileType,
    maxBytes: input.fileSize,
    expiresInSeconds: uploadUrlTtlSeconds,
  });
  return {
    s3Key: key,
    expiresAt: expiresAt(deps),
    presignedUrl: upload.url,
    method: 'PUT',
    headers: upload.headers,
    multipart: null,
  };
}

function multipartOf(deps: UploadDeps): MultipartStorage {
  if (!deps.storage.multipart) {
    throw new AppError('bad_request', 'This storage takes uploads in one piece; multipart uploads are not used.');
  }
  return deps.storage.multipart;
}

const uploadEnded = () =>
  new AppError('bad_request', 'This upload has ended or was cancelled. Start the upload again.');

/** Local driver: an unknown upload id is the client's mistake (S3 reports its own NoSuchUpload). */
async function knownUpload<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnknownUploadError) throw uploadEnded();
    throw error;
  }
}

export async function refreshPartUrls(deps: UploadDeps, input: z.output<typeof MultipartPartUrlsRequest>) {
  const multipart = multipartOf(deps);
  const parts = await knownUpload(() => partUrls(deps, multipart, input.s3Key, input.uploadId, input.partNumbers));
  return { parts, expiresAt: expiresAt(deps) };
}

/** Assembles the parts; an assembled object over the limit is deleted at once. */
export async function completeMultipart(deps: UploadDeps, input: z.output<typeof MultipartCompleteRequest>) {
  const multipart = multipartOf(deps);
  try {
    await multipart.complete(input.s3Key, input.uploadId, input.parts);
  } catch (error) {
    if (error instanceof UnknownUploadError) throw uploadEnded();
    throw new AppError('bad_request', `The upload could not be completed: ${(error as Error).message}`);
  }
  const info = await deps.storage.head(input.s3Key);
  if (!info) throw new AppError('bad_request', 'The upload could not be completed. Upload the file again.');
  if (info.size > deps.config.storage.maxMovieBytes) {
    await deps.storage.delete(input.s3Key);
    throw new AppError('payload_too_large', `Movies are limited to ${gigabytes(deps.config.storage.maxMovieBytes)}.`);
  }
  return { message: 'Upload complete.' };
}

export async function abortMultipart(deps: UploadDeps, input: z.output<typeof MultipartAbortRequest>) {
  const multipart = multipartOf(deps);
  await knownUpload(() => multipart.abort(input.s3Key, input.uploadId));
  return { message: 'Upload cancelled.' };
}
