import { readErrorEnvelopeText } from '../../../../lib/transfer/error-envelope.ts';
/**
 * One PUT of a Blob with upload progress. `fetch` cannot report upload progress, so this is XMLHttpRequest.
 * Never throws for HTTP answers: status 0 means the request never got an answer (network down, connection cut).
 */

export interface PutResult {
  /** 0: no answer (network error or timeout). */
  status: number;
  etag: string | null;
  /** The server's error message when it sent the JSON envelope. */
  message: string | null;
}

export type PutBlob = (request: {
  url: string;
  body: Blob;
  headers: Record<string, string>;
  onProgress: (loadedBytes: number) => void;
  signal: AbortSignal;
}) => Promise<PutResult>;

/** A part of 16 MiB on a bad line can take minutes; give up only when nothing moved for this long. */
const STALL_TIMEOUT_MS = 120_000;

export const xhrPut: PutBlob = ({ url, body, headers, onProgress, signal }) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    let stall = setTimeout(() => xhr.abort(), STALL_TIMEOUT_MS);
    const moved = () => {
      clearTimeout(stall);
      stall = setTimeout(() => xhr.abort(), STALL_TIMEOUT_MS);
    };
    const onAbort = () => xhr.abort();
    const finish = (result: PutResult | null) => {
      clearTimeout(stall);
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      else resolve(result ?? { status: 0, etag: null, message: null });
    };
    xhr.upload.onprogress = (event) => {
      moved();
      onProgress(event.loaded);
    };
    xhr.onload = () =>
      finish({
        status: xhr.status,
        etag: xhr.getResponseHeader('ETag'),
        message: readErrorEnvelopeText(xhr.responseText).message,
      });
    xhr.onerror = () => finish(null);
    xhr.onabort = () => finish(null);
    xhr.ontimeout = () => finish(null);
    signal.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
