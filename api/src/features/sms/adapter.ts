import {
  AT_STATUS,
  type AtSendResponse,
  type AtUserData,
  internationalNumber,
  isAccepted,
  isRetryableRefusal,
  userDataUrl,
} from './protocol.ts';

/**
 * What one send came to:
 * - `accepted`: the gateway took it (a delivery report will follow, matched by `messageId`);
 * - `refused`: the gateway answered and did not take it; `retryable` when waiting may help;
 * - `unknown`: the request may have reached the gateway but no answer came (a timeout, a cut connection). It may
 *   have been accepted, so the outbox never sends it again blindly (decision 0146).
 */
type SendOutcome =
  | { kind: 'accepted'; messageId: string; parts: number; cost: string; statusCode: number }
  | { kind: 'refused'; retryable: boolean; error: string }
  | { kind: 'unknown'; error: string };

/** What the gateway says of the account: its balance, or why it could not be read (decision 0157). */
type GatewayState = { kind: 'ok'; balance: string } | { kind: 'unavailable'; error: string };

export interface SmsGateway {
  /** `to` is a canonical 256XXXXXXXXX number. */
  send(to: string, message: string): Promise<SendOutcome>;
  /** The account's balance as the gateway reports it; never throws. */
  state(): Promise<GatewayState>;
}

export interface AfricasTalkingOptions {
  /** The messaging endpoint, e.g. https://api.africastalking.com/version1/messaging. */
  url: string;
  username: string;
  apiKey: string;
  /** Sender id or short code; null ⇒ the account's default. */
  from: string | null;
  timeoutMs: number;
  /** Default: the global fetch; the embedded simulator passes its in-process `request`. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Errors thrown before a byte left (nothing listening, DNS): safe to try again. */
const NEVER_LEFT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** The Africa's Talking adapter: one recipient per call, so one answer decides one outbox row. */
export function africasTalkingGateway(options: AfricasTalkingOptions): SmsGateway {
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  return {
    state: () => readUserData(options, doFetch),
    async send(to, message) {
      const form = new URLSearchParams({ username: options.username, to: internationalNumber(to), message });
      if (options.from) form.set('from', options.from);
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      });
      let response: Response;
      let text: string;
      try {
        const request = new Request(options.url, {
          method: 'POST',
          headers: {
            apiKey: options.apiKey,
            Accept: 'application/json',
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: form.toString(),
          signal: controller.signal,
        });
        response = await Promise.race([doFetch(request), timedOut]);
        text = await Promise.race([response.text(), timedOut]);
      } catch (error) {
        const code = causeCode(error);
        const detail = error instanceof Error ? error.message : String(error);
        if (code && NEVER_LEFT.has(code)) return { kind: 'refused', retryable: true, error: `unreachable: ${code}` };
        return { kind: 'unknown', error: `the gateway did not answer: ${detail}` };
      } finally {
        clearTimeout(timer);
      }
      if (!response.ok) {
        // 401 (bad key or username) and 4xx are ours to fix; 5xx is the gateway's and may pass.
        return {
          kind: 'refused',
          retryable: response.status >= 500,
          error: `HTTP ${response.status}: ${text.slice(0, 200)}`,
        };
      }
      let recipient;
      try {
        recipient = (JSON.parse(text) as AtSendResponse).SMSMessageData.Recipients[0];
      } catch {
        return { kind: 'unknown', error: `unreadable answer: ${text.slice(0, 200)}` };
      }
      if (!recipient) {
        // The gateway answers with no recipient when it refused the whole request (e.g. an invalid `to`).
        return { kind: 'refused', retryable: false, error: `no recipient in the answer: ${text.slice(0, 200)}` };
      }
      const code = Number(recipient.statusCode);
      if (isAccepted(code) && recipient.messageId) {
        return {
          kind: 'accepted',
          messageId: String(recipient.messageId).slice(0, 100),
          parts: Number(recipient.messageParts ?? 1) || 1,
          cost: String(recipient.cost ?? '').slice(0, 40),
          statusCode: code,
        };
      }
      return {
        kind: 'refused',
        retryable: isRetryableRefusal(code),
        error: `${code} ${String(recipient.status ?? AT_STATUS[code] ?? '').slice(0, 100)}`,
      };
    },
  };
}

/** `GET /version1/user?username=…`: the balance, within the send timeout; any failure is `unavailable`. */
async function readUserData(
  options: AfricasTalkingOptions,
  doFetch: (request: Request) => Promise<Response>,
): Promise<GatewayState> {
  const url = new URL(userDataUrl(options.url));
  url.searchParams.set('username', options.username);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await doFetch(
      new Request(url, {
        method: 'GET',
        headers: { apiKey: options.apiKey, Accept: 'application/json' },
        signal: controller.signal,
      }),
    );
    const text = await response.text();
    if (!response.ok) return { kind: 'unavailable', error: `HTTP ${response.status}: ${text.slice(0, 200)}` };
    const balance = (JSON.parse(text) as Partial<AtUserData>).UserData?.balance;
    if (typeof balance !== 'string' || balance.length === 0) {
      return { kind: 'unavailable', error: `no balance in the answer: ${text.slice(0, 200)}` };
    }
    return { kind: 'ok', balance: balance.slice(0, 40) };
  } catch (error) {
    return { kind: 'unavailable', error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
