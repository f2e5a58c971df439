// Longer than 300 lines on purpose: one upload's whole run (single PUT or multipart parts, retries, resume after a
// reload) drives the one state machine in machine.ts.
import type { UploadUrlResponse } from '@filamu/shared';
import { transition, type UploadEvent } from './machine.ts';
import { backoffMs, UPLOAD_RETRY } from '../../../../lib/transfer/backoff.ts';
import { SpeedMeter } from '../../../../lib/transfer/speed-meter.ts';
import { finishedBytes, partRange, pool, remainingParts, type FinishedPart } from './parts.ts';
import type { StoredUpload } from './record.ts';
import type { UploadRecords } from './store.ts';
import type { PutBlob, PutResult } from './transport.ts';

/**
 * Runs one upload item to the end (product §4): thumbnail, movie (one PUT, or parts 3 at a time), then the metadata
 * with its plans. Every finished step and part is written to the record first, so a run that stops anywhere
 * (drop, reload, Cancel) carries on from there. Side effects come in through `UploadDeps` (tests use fakes).
 */

interface UploadApi {
  uploadUrl(body: {
    fileName: string;
    fileType: string;
    fileSize: number;
    folder: 'movies' | 'thumbnails';
  }): Promise<UploadUrlResponse>;
  partUrls(body: {
    s3Key: string;
    uploadId: string;
    partNumbers: number[];
  }): Promise<{ parts: { partNumber: number; url: string }[] }>;
  complete(body: { s3Key: string; uploadId: string; parts: FinishedPart[] }): Promise<void>;
  abort(body: { s3Key: string; uploadId: string }): Promise<void>;
  saveMovie(body: {
    title: string;
    description: string | null;
    vj: string | null;
    category: 'English' | 'Kinayuganda';
    rating: 'all' | 'pg' | '13' | '18';
    certificateNumber: string | null;
    certificateDate: string | null;
    movieS3Key: string;
    thumbnailS3Key: string | null;
    size: number;
    planIds: string[];
  }): Promise<{ id: string }>;
}

export interface UploadDeps {
  api: UploadApi;
  put: PutBlob;
  records: UploadRecords;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
  /** Every state change (the record is a fresh copy each time). */
  onChange(record: StoredUpload): void;
}

const PARALLEL_PARTS = 3;
/** Tries per part before the item fails (about 2 minutes of back-off); Retry then resumes from the finished parts. */
export const MAX_ATTEMPTS = 8;
const MAX_LINK_RENEWALS = 3;
const PART_URL_BATCH = 1000;

export const NETWORK_MESSAGE = 'The connection dropped and did not come back. Check the network, then press Retry.';
const ENDED_MESSAGE = 'This upload has ended or was cancelled. Start the upload again.';

class UploadFailure extends Error {}
/** The storage no longer knows the multipart upload: the movie must start again from its first byte. */
class UploadEnded extends UploadFailure {
  constructor() {
    super(ENDED_MESSAGE);
  }
}

const retryable = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;
const linkRefused = (status: number) => status === 401 || status === 403;
const ok = (result: PutResult) => result.status >= 200 && result.status < 300;

/** Runs the item; resolves when it completed or failed (the record says which), rejects only when aborted. */
export async function runUpload(
  deps: UploadDeps,
  start: StoredUpload,
  files: { movie: File | null; thumbnail: Blob | null },
  signal: AbortSignal,
): Promise<StoredUpload> {
  let record = structuredClone(start);
  let writes = Promise.resolve();
  const save = () => {
    const snapshot = structuredClone(record);
    deps.onChange(snapshot);
    writes = writes.then(() => deps.records.put(snapshot)).catch(() => {});
    return writes;
  };
  const emit = (event: UploadEvent) => {
    record = { ...record, state: transition(record.state, event) };
  };
  const live = (event: UploadEvent) => {
    emit(event);
    deps.onChange(structuredClone(record));
  };

  try {
    if (record.thumbnail && !record.thumbnailKey) {
      const blob = files.thumbnail ?? record.thumbnail.blob;
      emit({ type: 'start', phase: 'thumbnail', totalBytes: blob.size });
      await save();
      const thumbnailKey = await singlePut(deps, record.thumbnail, blob, 'thumbnails', signal, live);
      record = { ...record, thumbnailKey };
      await save();
    }
    if (!record.movieStored) {
      if (!files.movie) {
        emit({ type: 'file-lost' });
        await save();
        return record;
      }
      const patch = (change: Partial<StoredUpload>) => {
        record = { ...record, ...change };
      };
      await uploadMovie(deps, { get: () => record, patch, save, live }, files.movie, signal);
    }
    emit({ type: 'uploaded' });
    await save();
    const { form } = record;
    await deps.api.saveMovie({
      title: form.title.trim(),
      description: form.category === 'English' && form.description.trim() ? form.description.trim() : null,
      vj: form.vj.trim() || null,
      category: form.category,
      rating: form.rating,
      certificateNumber: form.certificateNumber?.trim() || null,
      certificateDate: form.certificateDate || null,
      movieS3Key: record.movieKey!,
      thumbnailS3Key: record.thumbnailKey,
      size: record.movie.size,
      planIds: form.planIds,
    });
    emit({ type: 'saved' });
    await save();
    return record;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof UploadEnded) {
      // Next Retry starts the movie from its first byte under a new key.
      record = { ...record, movieKey: null, multipart: null };
    }
    emit({ type: 'fail', message: messageOf(error) });
    await save();
    return record;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

/** The running item's record, owned by runUpload (state events and step results change it in one place). */
interface ItemContext {
  get(): StoredUpload;
  patch(change: Partial<StoredUpload>): void;
  save(): Promise<void>;
  live(event: UploadEvent): void;
}

async function uploadMovie(deps: UploadDeps, item: ItemContext, file: File, signal: AbortSignal): Promise<void> {
  const { patch, save, live } = item;
  let freshLinks = new Map<number, string>();
  if (!item.get().multipart) {
    const link = await deps.api.uploadUrl({
      fileName: file.name,
      fileType: item.get().movie.type,
      fileSize: file.size,
      folder: 'movies',
    });
    if (!link.multipart) {
      live({ type: 'start', phase: 'movie', totalBytes: file.size });
      await save();
      const key = await putWithRetries(deps, link.presignedUrl!, link.headers, file, signal, (loaded, speed) =>
        live({ type: 'progress', sentBytes: loaded, speedBps: speed }),
      );
      if (key === 'ended') throw new UploadEnded();
      patch({ movieKey: link.s3Key, movieStored: true });
      await save();
      return;
    }
    const { uploadId, partSize, partCount, parts } = link.multipart;
    patch({ movieKey: link.s3Key, multipart: { uploadId, partSize, partCount, finished: [] } });
    freshLinks = new Map(parts.map((part) => [part.partNumber, part.url]));
  }
  const multipart = item.get().multipart!;
  const key = item.get().movieKey!;
  const finished = [...multipart.finished];
  live({
    type: 'start',
    phase: 'movie',
    totalBytes: file.size,
    sentBytes: finishedBytes(finished, multipart.partSize, file.size),
  });
  await save();

  const mint = async (numbers: number[]) => {
    for (let i = 0; i < numbers.length; i += PART_URL_BATCH) {
      const batch = numbers.slice(i, i + PART_URL_BATCH);
      try {
        const answer = await deps.api.partUrls({ s3Key: key, uploadId: multipart.uploadId, partNumbers: batch });
        for (const part of answer.parts) freshLinks.set(part.partNumber, part.url);
      } catch (error) {
        if ((error as { status?: number }).status === 400) throw new UploadEnded();
        throw error;
      }
    }
  };
  const todo = remainingParts(multipart.partCount, finished);
  // Links from an earlier run have lapsed (or may have): ask for the ones still needed.
  if (todo.some((n) => !freshLinks.has(n))) await mint(todo.filter((n) => !freshLinks.has(n)));

  const meter = new SpeedMeter();
  const inFlight = new Map<number, number>();
  const report = () => {
    const sent =
      finishedBytes(finished, multipart.partSize, file.size) + [...inFlight.values()].reduce((a, b) => a + b, 0);
    live({ type: 'progress', sentBytes: sent, speedBps: meter.sample(deps.now(), sent) });
  };

  await pool(todo, PARALLEL_PARTS, async (partNumber) => {
    const { start, end } = partRange(partNumber, multipart.partSize, file.size);
    const body = file.slice(start, end);
    let attempts = 0;
    let renewals = 0;
    for (;;) {
      signal.throwIfAborted();
      if (!freshLinks.has(partNumber)) await mint([partNumber]);
      const result = await deps.put({
        url: freshLinks.get(partNumber)!,
        body,
        headers: {},
        onProgress: (loaded) => {
          inFlight.set(partNumber, loaded);
          report();
        },
        signal,
      });
      inFlight.delete(partNumber);
      if (ok(result)) {
        if (!result.etag) {
          throw new UploadFailure(
            'The storage did not say which part it received (no ETag). Ask for its CORS rule to expose ETag.',
          );
        }
        finished.push({ partNumber, etag: result.etag });
        patch({ multipart: { ...multipart, finished: [...finished] } });
        report();
        await save();
        return;
      }
      if (linkRefused(result.status)) {
        // The link lapsed (the laptop slept, the part waited its turn): a fresh one for this part only.
        if (++renewals > MAX_LINK_RENEWALS)
          throw new UploadFailure(result.message ?? 'The storage refused the upload link.');
        freshLinks.delete(partNumber);
        continue;
      }
      if (result.status === 404) throw new UploadEnded();
      if (retryable(result.status) && ++attempts < MAX_ATTEMPTS) {
        report();
        await deps.sleep(backoffMs(attempts, UPLOAD_RETRY), signal);
        continue;
      }
      throw new UploadFailure(
        retryable(result.status)
          ? NETWORK_MESSAGE
          : (result.message ?? `The storage refused part ${partNumber} (${result.status}).`),
      );
    }
  });

  try {
    await deps.api.complete({ s3Key: key, uploadId: multipart.uploadId, parts: finished });
  } catch (error) {
    if ((error as { status?: number }).status === 400) {
      // Parts the storage no longer has (or a stale ETag): send them again from the start.
      patch({ multipart: { ...multipart, finished: [] } });
    }
    throw error;
  }
  patch({ movieStored: true });
  await save();
}

/** One PUT of a whole small file (thumbnail, small movie), retried from its start; returns the key. */
async function singlePut(
  deps: UploadDeps,
  file: { name: string; type: string },
  blob: Blob,
  folder: 'thumbnails',
  signal: AbortSignal,
  live: (event: UploadEvent) => void,
): Promise<string> {
  const link = await deps.api.uploadUrl({ fileName: file.name, fileType: file.type, fileSize: blob.size, folder });
  const result = await putWithRetries(deps, link.presignedUrl!, link.headers, blob, signal, (loaded, speed) =>
    live({ type: 'progress', sentBytes: loaded, speedBps: speed }),
  );
  if (result === 'ended') throw new UploadFailure('The upload link expired. Please press Retry.');
  return link.s3Key;
}

async function putWithRetries(
  deps: UploadDeps,
  url: string,
  headers: Record<string, string>,
  body: Blob,
  signal: AbortSignal,
  progress: (loaded: number, speedBps: number) => void,
): Promise<'stored' | 'ended'> {
  const meter = new SpeedMeter();
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted();
    const result = await deps.put({
      url,
      body,
      headers,
      onProgress: (loaded) => progress(loaded, meter.sample(deps.now(), loaded)),
      signal,
    });
    if (ok(result)) return 'stored';
    // The link's object exists: an earlier try got through and only its answer was lost.
    if (result.status === 409) return 'stored';
    if (linkRefused(result.status)) return 'ended';
    if (!retryable(result.status)) {
      throw new UploadFailure(result.message ?? `The storage refused the file (${result.status}).`);
    }
    if (attempt >= MAX_ATTEMPTS) throw new UploadFailure(NETWORK_MESSAGE);
    progress(0, 0);
    await deps.sleep(backoffMs(attempt, UPLOAD_RETRY), signal);
  }
}

/** Cancel: discards a multipart upload's parts on the storage (best effort; stale ones expire anyway). */
export async function abortStored(deps: Pick<UploadDeps, 'api'>, record: StoredUpload): Promise<void> {
  if (record.multipart && record.movieKey && !record.movieStored) {
    await deps.api.abort({ s3Key: record.movieKey, uploadId: record.multipart.uploadId }).catch(() => {});
  }
}
