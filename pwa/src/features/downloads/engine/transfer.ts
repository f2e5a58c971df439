import { parseContentRange, strongEtag } from './http-range.ts';

/**
 * One ranged transfer of a movie into a file: `GET` from the committed offset, validated before a single byte is
 * spliced, streamed to disk, committed every `commitEveryBytes` / `commitEveryMs` after a flush. It returns why it
 * stopped; the engine decides what happens next. No custom headers but `Range` (and `If-Range` on our own origin),
 * so the signed link needs no CORS preflight on S3 or a CDN.
 */
/** The part of an OPFS `FileSystemSyncAccessHandle` a transfer uses. */
export interface FileSink {
  getSize(): number;
  truncate(size: number): void;
  write(data: Uint8Array, options: { at: number }): number;
  flush(): void;
}

export interface TransferInput {
  url: string;
  size: number;
  etag: string | null;
  /** Bytes already on disk and committed; the sink has been truncated to it. */
  committed: number;
  /** Send `If-Range` (same-origin links only: on another origin it would force a preflight). */
  ifRange: boolean;
}

export interface TransferDeps {
  fetch: typeof fetch;
  sink: FileSink;
  /** Records a durable offset (after `flush`), the validator of the bytes before it and the bytes received so far. */
  commit: (offset: number, etag: string | null, networkBytes: number) => Promise<void>;
  /** Bytes on disk now (uncommitted included), as they arrive. */
  onBytes?: (position: number) => void;
  signal: AbortSignal;
  now: () => number;
  commitEveryBytes: number;
  commitEveryMs: number;
  /** No byte for this long: the connection is dead even if the socket does not say so. */
  stallMs: number;
}

export type TransferOutcome =
  | { kind: 'complete' }
  /** 401/403 from storage: the link expired or was refused; ask the API for a fresh one. */
  | { kind: 'link-lapsed'; status: number }
  /** Dropped, stalled or offline: try again (back-off), from what was committed. */
  | { kind: 'network'; message: string }
  | { kind: 'server'; status: number }
  /** The file changed under us: what we had was discarded (offset 0); start again. */
  | { kind: 'changed'; etag: string | null }
  | { kind: 'gone'; status: number }
  | { kind: 'http'; status: number; message: string }
  | { kind: 'no-space' }
  | { kind: 'aborted' };

export interface TransferResult {
  outcome: TransferOutcome;
  /** Body bytes received from the network by this transfer. */
  networkBytes: number;
}

function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'QuotaExceededError';
}

class Stalled extends Error {}

export async function runTransfer(input: TransferInput, deps: TransferDeps): Promise<TransferResult> {
  const { sink } = deps;
  let networkBytes = 0;
  let position = input.committed;
  let etag = input.etag;

  const controller = new AbortController();
  const onAbort = () => controller.abort(deps.signal.reason);
  if (deps.signal.aborted) return { outcome: { kind: 'aborted' }, networkBytes };
  deps.signal.addEventListener('abort', onAbort, { once: true });
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  const armStallTimer = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => controller.abort(new Stalled('stalled')), deps.stallMs);
  };
  const done = (outcome: TransferOutcome): TransferResult => ({ outcome, networkBytes });

  const discardAll = async (newEtag: string | null) => {
    sink.truncate(0);
    sink.flush();
    position = 0;
    etag = newEtag;
    await deps.commit(0, newEtag, networkBytes);
  };

  try {
    const headers: Record<string, string> = {};
    if (position > 0) {
      headers.Range = `bytes=${position}-`;
      if (input.ifRange && etag) headers['If-Range'] = etag;
    }
    armStallTimer();
    let response: Response;
    try {
      response = await deps.fetch(input.url, { headers, cache: 'no-store', signal: controller.signal });
    } catch (error) {
      if (deps.signal.aborted) return done({ kind: 'aborted' });
      return done({ kind: 'network', message: error instanceof Error ? error.message : String(error) });
    }

    const status = response.status;
    const responseEtag = strongEtag(response.headers.get('ETag'));
    if (status === 401 || status === 403) return done({ kind: 'link-lapsed', status });
    if (status === 404 || status === 410) return done({ kind: 'gone', status });
    if (status === 416) {
      const range = parseContentRange(response.headers.get('Content-Range'));
      if (range?.total === input.size && position === input.size) return done({ kind: 'complete' });
      await discardAll(null);
      return done({ kind: 'changed', etag: null });
    }
    if (status >= 500) return done({ kind: 'server', status });
    if (status !== 200 && status !== 206) {
      return done({ kind: 'http', status, message: `HTTP status: ${status} ${response.statusText}`.trim() });
    }

    if (status === 206) {
      const range = parseContentRange(response.headers.get('Content-Range'));
      const sameFile = !etag || !responseEtag || responseEtag === etag;
      if (!range || range.start !== position || range.total !== input.size || !sameFile) {
        // Never splice bytes of another version (or another range) onto what we hold.
        await response.body?.cancel().catch(() => undefined);
        await discardAll(sameFile ? etag : responseEtag);
        return done({ kind: 'changed', etag: responseEtag });
      }
    } else {
      // 200: the whole file from byte 0 — the range was ignored or the file changed. Start over with this body.
      const length = Number(response.headers.get('Content-Length') ?? input.size);
      if (length !== input.size) {
        await response.body?.cancel().catch(() => undefined);
        return done({ kind: 'http', status, message: 'The file on the server is not the expected size.' });
      }
      if (position > 0 || (etag && responseEtag && responseEtag !== etag)) await discardAll(responseEtag);
    }
    if (responseEtag && responseEtag !== etag) {
      etag = responseEtag;
      await deps.commit(position, etag, networkBytes);
    }

    const reader = response.body?.getReader();
    if (!reader) return done({ kind: 'http', status, message: 'No response body reader available' });

    let committedAt = position;
    let committedTime = deps.now();
    const commitNow = async () => {
      sink.flush();
      committedAt = position;
      committedTime = deps.now();
      await deps.commit(position, etag, networkBytes);
    };

    try {
      for (;;) {
        armStallTimer();
        const { done: finished, value } = await reader.read();
        if (finished) break;
        networkBytes += value.byteLength;
        if (position + value.byteLength > input.size) {
          await reader.cancel().catch(() => undefined);
          await commitNow();
          return done({ kind: 'http', status, message: 'The server sent more bytes than the file holds.' });
        }
        let written: number;
        try {
          written = sink.write(value, { at: position });
        } catch (error) {
          if (!isQuotaError(error)) throw error;
          written = -1;
        }
        // Out of quota, a sync handle throws or writes short: either way the disk is full.
        if (written !== value.byteLength) {
          await reader.cancel().catch(() => undefined);
          // The bytes before this chunk are on disk: keep them.
          await commitNow().catch(() => undefined);
          return done({ kind: 'no-space' });
        }
        position += value.byteLength;
        deps.onBytes?.(position);
        if (position - committedAt >= deps.commitEveryBytes || deps.now() - committedTime >= deps.commitEveryMs) {
          await commitNow();
        }
      }
    } catch (error) {
      // Everything written before the drop is good data: commit it, then let the engine retry from there.
      await commitNow().catch(() => undefined);
      if (deps.signal.aborted) return done({ kind: 'aborted' });
      if (isQuotaError(error)) return done({ kind: 'no-space' });
      const message = controller.signal.reason instanceof Stalled ? 'The connection stalled.' : String(error);
      return done({ kind: 'network', message });
    }
    await commitNow();
    if (position === input.size) return done({ kind: 'complete' });
    return done({ kind: 'network', message: 'The connection closed before the end of the file.' });
  } finally {
    clearTimeout(stallTimer);
    deps.signal.removeEventListener('abort', onAbort);
  }
}
