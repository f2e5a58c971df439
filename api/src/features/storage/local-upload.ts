import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { statObject, writeAtomically } from './local-objects.ts';

/**
 * Receiving the body of a signed PUT: streamed to a temp file while counting, fsynced, then linked under its key.
 * A broken upload (client gone, too many bytes, disk error) deletes the temp file, so there is never half an
 * object under a key.
 */

export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the upload is larger than ${maxBytes} bytes`);
  }
}

export class UploadInterruptedError extends Error {
  constructor(cause?: unknown) {
    super('the upload ended before its body did', { cause });
  }
}

export async function receiveUpload(options: {
  dir: string;
  key: string;
  finalPath: string;
  body: Readable;
  maxBytes: number;
}): Promise<BigIntStats> {
  await writeAtomically(options.dir, options.finalPath, options.key, async (handle) => {
    await copyAtMost(options.body, handle, options.maxBytes);
  });
  const stats = await statObject(options.finalPath);
  if (!stats) throw new Error(`the upload of ${options.key} vanished after it was published`);
  return stats;
}

/**
 * Copies `body` into the file, one chunk at a time (the body is paused while a chunk is written), and fails as
 * soon as it passes `maxBytes`, which is what cuts off a chunked body with no Content-Length. On failure the
 * body is left paused, not destroyed, so the server can still send its error answer on the connection.
 */
export function copyAtMost(body: Readable, file: FileHandle, maxBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let ended = false;
    let settled = false;

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return fail(new UploadTooLargeError(maxBytes));
      body.pause();
      file.write(chunk).then(() => {
        if (!settled) body.resume();
      }, fail);
    };
    // 'end' comes only once every 'data' was handled and resumed, so no write is in flight here.
    const onEnd = () => {
      ended = true;
      settle();
      resolve(received);
    };
    const onError = (error: unknown) => fail(new UploadInterruptedError(error));
    const onClose = () => {
      if (!ended) fail(new UploadInterruptedError());
    };

    function settle() {
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      // An aborted request still emits 'error' later; without a listener that would crash the process.
      body.on('error', ignore);
    }
    function fail(error: unknown) {
      if (settled) return;
      settle();
      body.pause();
      reject(error);
    }

    if (body.readableEnded) return resolve(0);
    if (body.destroyed) return reject(new UploadInterruptedError(body.errored));
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

function ignore(): void {}
