import type { PushPayload } from '@filamu/shared';
import type { Agent } from 'node:https';
import webPush from 'web-push';

/** Where one browser's pushes go, and the keys its payloads are encrypted to. */
interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

type PushOutcome =
  | { kind: 'accepted'; status: number }
  /** 404/410: the browser unsubscribed or the subscription expired; it will never take a push again. */
  | { kind: 'gone'; status: number; error: string }
  | { kind: 'failed'; retryable: boolean; error: string }
  /** The request may have reached the push service (a timeout, a reset mid-answer): never sent again. */
  | { kind: 'unknown'; error: string };

/** Sends one encrypted, VAPID-signed push (RFC 8030/8291/8292). The outbox is its only caller. */
export interface PushGateway {
  /** The VAPID public key browsers subscribe with (base64url). */
  readonly publicKey: string;
  send(target: PushTarget, payload: PushPayload): Promise<PushOutcome>;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** How long a push service keeps a push for a phone that is off: a day; a stale notice is worse than none. */
const PUSH_TTL_SECONDS = 24 * 3600;

/** Errors raised before a request could reach the push service: safe to try again later. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function webPushGateway(options: {
  keys: VapidKeys;
  subject: string;
  timeoutMs: number;
  /** Tests: an agent trusting the local push service's certificate. */
  agent?: Agent;
}): PushGateway {
  const vapidDetails = { subject: options.subject, ...options.keys };
  return {
    publicKey: options.keys.publicKey,
    async send(target, payload) {
      try {
        const result = await webPush.sendNotification(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(payload),
          {
            vapidDetails,
            TTL: PUSH_TTL_SECONDS,
            timeout: options.timeoutMs,
            contentEncoding: 'aes128gcm',
            ...(options.agent ? { agent: options.agent } : {}),
          },
        );
        return { kind: 'accepted', status: result.statusCode };
      } catch (error) {
        return outcomeOf(error);
      }
    },
  };
}

function outcomeOf(error: unknown): PushOutcome {
  if (error instanceof webPush.WebPushError) {
    const status = error.statusCode;
    const detail = `${status}: ${String(error.body ?? '').slice(0, 200) || error.message}`;
    if (status === 404 || status === 410) return { kind: 'gone', status, error: detail };
    // Too many requests and the push service's own trouble pass; a refused key or payload will not.
    return { kind: 'failed', retryable: status === 429 || status >= 500, error: detail };
  }
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code && NOT_SENT_CODES.has(code)) return { kind: 'failed', retryable: true, error: `${code}: ${message}` };
  return { kind: 'unknown', error: message };
}

export function generateVapidKeys(): VapidKeys {
  return webPush.generateVAPIDKeys();
}
