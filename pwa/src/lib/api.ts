import {
  ApiErrorBody,
  DEVICE_ID_HEADER,
  fillPath,
  type Contract,
  type FieldIssue,
  type ProofChallenge,
  type RequestOf,
  type ResponseOf,
} from '@filamu/shared';
import { getDeviceId, regenerateDeviceId } from './device-id.ts';
import { t, useLocaleStore } from './i18n.ts';
import { navigateTo } from './navigation.ts';
import { readErrorEnvelope } from './transfer/error-envelope.ts';
import { useSessionStore } from './session.ts';
import { toast } from './toast.ts';

/** Product §9: default request timeout. */
const REQUEST_TIMEOUT_MS = 300_000;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: FieldIssue[];
  readonly requestId: string | null;
  readonly retryAfter: number | null;
  /** With `proof_required`: the check to solve before sending again (decision 0195). */
  readonly proof: ProofChallenge | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    issues?: FieldIssue[];
    requestId?: string | null;
    retryAfter?: number | null;
    proof?: ProofChallenge | null;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.issues = init.issues ?? [];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.proof = init.proof ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message for an error, or `fallback` for anything else. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}

export interface CallOptions {
  /** Set false to handle a 401 yourself (the session is still cleared). Default true. */
  redirectOn401?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Ends the local session after the server refused our token (product §8: 401 → cleared, to /login), and says
 * why, so being sent to /login is never a mystery ("signed in on another device", "session expired").
 */
function handleUnauthorized(redirect: boolean, reason: string): void {
  useSessionStore.getState().clear();
  regenerateDeviceId();
  toast.info(t('ui.signedOut'), reason);
  // My Downloads and the Play screen stay open for the person whose films are on the phone (decision 0233).
  const keptHere = !!useSessionStore.getState().keptOwnerId && window.location.pathname.startsWith('/downloads');
  if (redirect && window.location.pathname !== '/login' && !keptHere) navigateTo('/login');
}

function buildUrl(contract: Contract, request: { params?: unknown; query?: unknown }): string {
  let url = `/api${fillPath(contract.path, request.params as Record<string, unknown> | undefined)}`;
  if (request.query && typeof request.query === 'object') {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query as Record<string, unknown>)) {
      if (value !== undefined && value !== null) search.set(key, String(value));
    }
    const qs = search.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

function parseErrorBody(status: number, json: unknown, retryAfter: number | null): ApiError {
  const parsed = ApiErrorBody.safeParse(json);
  if (parsed.success) {
    const { code, message, issues, requestId, proof } = parsed.data.error;
    return new ApiError({ status, code, message, issues, requestId, retryAfter, proof });
  }
  // Tolerate codes this client does not know yet.
  const loose = readErrorEnvelope(json);
  return new ApiError({
    status,
    code: loose.code,
    message: loose.message ?? `Request failed (${status}).`,
    retryAfter,
  });
}

/** Calls one API contract: fills the path, sends JSON with auth + device headers, validates the answer. */
export async function api<C extends Contract>(
  contract: C,
  request: RequestOf<C> = {} as RequestOf<C>,
  options: CallOptions = {},
): Promise<ResponseOf<C>> {
  const token = useSessionStore.getState().token;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [DEVICE_ID_HEADER]: getDeviceId(),
    // The language shown on this phone, which may not be the browser's: error messages come back in it (0258).
    'Accept-Language': useLocaleStore.getState().locale,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  const req = request as { body?: unknown; params?: unknown; query?: unknown };
  const hasBody = req.body !== undefined && contract.method !== 'get';
  if (hasBody) headers['Content-Type'] = 'application/json';

  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await fetch(buildUrl(contract, req), {
      method: contract.method.toUpperCase(),
      headers,
      body: hasBody ? JSON.stringify(req.body) : undefined,
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new ApiError({ status: 0, code: 'timeout', message: t('ui.error.timeout') });
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({
      status: 0,
      code: 'network',
      message: t('ui.error.network'),
    });
  }

  const text = await response.text();
  let json: unknown = null;
  // A contract answered in text (subtitles, text/vtt): the text is the value, checked by its schema like JSON.
  if (response.ok && contract.contentType) json = text;
  else if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }

  if (!response.ok) {
    const retryAfterHeader = response.headers.get('Retry-After');
    const retryAfter = retryAfterHeader ? Number(retryAfterHeader) || null : null;
    const error = parseErrorBody(response.status, json, retryAfter);
    // A 401 on a call made with the current token means the session is gone (e.g. signed in elsewhere). It is the
    // only answer that signs out: a 403 (not allowed for this account), network errors, timeouts and 5xx keep the
    // session (docs/decisions/0040).
    if (response.status === 401 && token && useSessionStore.getState().token === token) {
      handleUnauthorized(options.redirectOn401 !== false, error.message);
    }
    throw error;
  }

  const parsed = contract.response.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'bad_response',
      message: t('ui.error.unexpected'),
    });
  }
  return parsed.data as ResponseOf<C>;
}
