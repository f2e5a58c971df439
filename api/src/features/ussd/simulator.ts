import { randomBytes } from 'node:crypto';
import { USSD_SERVICE_CODE, type UssdDialResponse, type UssdScreen } from '@filamu/shared';
import type { Logger } from 'pino';
import { readAnswer } from './protocol.ts';

/** The code the simulated network routes to Filamu (an Africa's Talking shared code, as the sandbox hands out). */
export const USSD_SIMULATOR_SERVICE_CODE = USSD_SERVICE_CODE;
/** MTN Uganda's mobile network code, as the gateway sends it. */
const NETWORK_CODE = '64110';
/** How long the gateway waits for our answer before it ends the session (handsets give up soon after). */
const ANSWER_TIMEOUT_MS = 10_000;

interface Session {
  id: string;
  phoneNumber: string;
  /** Every input typed so far, as the gateway accumulates them. */
  inputs: string[];
  ended: boolean;
}

export interface UssdSimulator {
  /** Where the gateway POSTs: the app binds its own handler of real requests (the callback route, secret and all). */
  bind(post: (request: Request) => Promise<Response>): void;
  /** A whole dial: the first screen, then one screen per input until the session ends. */
  dial(phoneNumber: string, inputs: readonly string[]): Promise<UssdDialResponse>;
  /** Callbacks sent (tests count retried steps with it). */
  requests(): number;
}

export interface UssdSimulatorOptions {
  /** The secret the callback URL carries (the app accepts it in simulator mode; it never leaves the process). */
  secret: string;
  logger?: Logger;
  timeoutMs?: number;
}

/**
 * Africa's Talking's USSD gateway, simulated (decision 0249): a session has an id; each step POSTs the form the
 * gateway POSTs — `sessionId`, `serviceCode`, `phoneNumber` (+256…), `networkCode`, and `text`, everything typed so far
 * joined with `*` — to the callback URL, and honours the answer: `CON` shows the screen and waits for the next input,
 * `END` shows it and closes the session; an HTTP error, an answer that is neither, or none in time ends the session
 * with the network's own words, as the gateway does. In process, like the SMS simulator (decision 0146).
 */
export function createUssdSimulator(options: UssdSimulatorOptions): UssdSimulator {
  const timeoutMs = options.timeoutMs ?? ANSWER_TIMEOUT_MS;
  let post: ((request: Request) => Promise<Response>) | null = null;
  let requestCount = 0;

  const step = async (session: Session): Promise<UssdScreen> => {
    if (!post) throw new Error('The USSD simulator is not bound to the app.');
    requestCount += 1;
    const form = new URLSearchParams({
      sessionId: session.id,
      serviceCode: USSD_SIMULATOR_SERVICE_CODE,
      phoneNumber: session.phoneNumber,
      networkCode: NETWORK_CODE,
      text: session.inputs.join('*'),
    });
    const input = session.inputs.at(-1) ?? null;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(null);
      }, timeoutMs);
    });
    try {
      const request = new Request(
        `http://ussd-simulator/api/ussd/callback?secret=${encodeURIComponent(options.secret)}`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' },
          body: form.toString(),
          signal: controller.signal,
        },
      );
      const answered = await Promise.race([
        post(request).then(async (response) => ({ status: response.status, body: await response.text() })),
        late,
      ]);
      const answer = answered && answered.status === 200 ? readAnswer(answered.body) : null;
      if (!answer) {
        options.logger?.warn(
          { ussd: { sessionId: session.id, status: answered?.status ?? 'timeout' } },
          'ussd simulator: the callback failed; session ended',
        );
        session.ended = true;
        return { input, kind: 'END', text: 'Connection problem or invalid MMI code.' };
      }
      if (answer.kind === 'END') session.ended = true;
      return { input, ...answer };
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    bind: (handler) => {
      post = handler;
    },
    async dial(phoneNumber, inputs) {
      const session: Session = {
        id: `ATUid_${randomBytes(16).toString('hex')}`,
        phoneNumber,
        inputs: [],
        ended: false,
      };
      const screens = [await step(session)];
      let typed = 0;
      while (!session.ended && typed < inputs.length) {
        session.inputs.push(inputs[typed]!);
        typed += 1;
        screens.push(await step(session));
      }
      return { sessionId: session.id, screens, unused: inputs.slice(typed) };
    },
    requests: () => requestCount,
  };
}
