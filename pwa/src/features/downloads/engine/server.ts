import {
  contracts,
  DEVICE_ID_HEADER,
  fillPath,
  type Contract,
  type DownloadSize,
  type RequestOf,
  type ResponseOf,
} from '@filamu/shared';
import { readErrorEnvelope } from '../../../lib/transfer/error-envelope.ts';
import { parseRetryAfter } from './retry-after.ts';
import type { LocalDownload } from './record.ts';
import type { StoredSubtitleTrack } from './store.ts';

/**
 * The engine's calls to the API from the worker (no localStorage, no router there): the page hands over the
 * session with each `auth` command. Errors come back as values the engine can branch on.
 */
export interface Session {
  token: string;
  deviceId: string;
}

export type ServerAnswer<T> =
  | { ok: true; value: T }
  /** `retryAfterMs`: the server's Retry-After (on 429 and 503), null when it gave none. */
  | { ok: false; status: number; code: string; message: string; retryAfterMs: number | null };

const TIMEOUT_MS = 30_000;

async function callApi<C extends Contract>(
  session: Session,
  contract: C,
  request: RequestOf<C>,
): Promise<ServerAnswer<ResponseOf<C>>> {
  const req = request as { body?: unknown; params?: Record<string, unknown>; query?: Record<string, string> };
  const search = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
  let response: Response;
  try {
    response = await fetch(`/api${fillPath(contract.path, req.params)}${search}`, {
      method: contract.method.toUpperCase(),
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${session.token}`,
        [DEVICE_ID_HEADER]: session.deviceId,
      },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: 0, code: 'network', message: 'Network error', retryAfterMs: null };
  }
  const text = await response.text().catch(() => '');
  // A contract answered in text (subtitles, text/vtt): the text is the value, checked by its schema like JSON.
  const json: unknown = response.ok && contract.contentType ? text : parseJson(text);
  if (!response.ok) {
    const error = readErrorEnvelope(json);
    return {
      ok: false,
      status: response.status,
      code: error.code,
      message: error.message ?? `HTTP status: ${response.status}`,
      retryAfterMs: parseRetryAfter(response.headers.get('Retry-After'), Date.now()),
    };
  }
  const parsed = contract.response.safeParse(json);
  if (!parsed.success) {
    return { ok: false, status: response.status, code: 'bad_response', message: 'Bad response', retryAfterMs: null };
  }
  return { ok: true, value: parsed.data as ResponseOf<C> };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A link to the film's file; with the phone's licence key, the answer carries the film's licence too (decision 0230). */
export function mintLink(session: Session, movieId: string, size?: DownloadSize, devicePublicKey?: string) {
  return callApi(session, contracts.downloads.downloadUrl, {
    body: { movieId, purpose: 'foreground', size, devicePublicKey },
  });
}

export function reportProgress(
  session: Session,
  downloadId: string,
  downloadedBytes: number,
  totalBytes: number,
  status: 'downloading' | 'paused' = 'downloading',
) {
  const progress = totalBytes > 0 ? Math.round((downloadedBytes / totalBytes) * 1000) / 10 : 0;
  return callApi(session, contracts.downloads.reportProgress, {
    params: { id: downloadId },
    body: { downloadedBytes, totalBytes, progress, status },
  });
}

export function reportComplete(session: Session, downloadId: string, downloadedBytes: number) {
  return callApi(session, contracts.downloads.completeDownload, {
    params: { id: downloadId },
    body: { downloadedBytes },
  });
}

export function reportFailure(session: Session, downloadId: string, error: string) {
  return callApi(session, contracts.downloads.failDownload, {
    params: { id: downloadId },
    body: { error: error.slice(0, 500) },
  });
}

/**
 * The signed manifest of the file the phone holds (decision 0243); null when it cannot be had now (no connection, a
 * plain file, a record from before the file's size was kept): the film is then prepared when it is first sent.
 */
export async function filmManifest(
  session: Session,
  record: Pick<LocalDownload, 'movieId' | 'fileKind' | 'sizeChoice' | 'fileNonce'>,
): Promise<string | null> {
  // The size asked for is the file's (the server never hands out another), on records made before `fileKind`.
  const size = record.fileKind ?? record.sizeChoice;
  if (!size || !record.fileNonce) return null;
  const answer = await callApi(session, contracts.filmFiles.filmManifest, {
    params: { id: record.movieId },
    query: { size, nonce: record.fileNonce },
  });
  return answer.ok ? answer.value.manifest : null;
}

/**
 * The subtitles a movie has on the server now, each as WebVTT text (decision 0173), for keeping beside the film;
 * null when a call failed (the Play screen fetches them again when it opens online).
 */
export async function subtitleTracks(session: Session, movieId: string): Promise<StoredSubtitleTrack[] | null> {
  const detail = await callApi(session, contracts.movies.userMovie, { params: { id: movieId } });
  if (!detail.ok) return null;
  const tracks: StoredSubtitleTrack[] = [];
  for (const { language, label } of detail.value.movie.subtitles) {
    const vtt = await callApi(session, contracts.subtitles.movieSubtitles, { params: { id: movieId, language } });
    if (!vtt.ok) return null;
    tracks.push({ language, label, vtt: vtt.value });
  }
  return tracks;
}
