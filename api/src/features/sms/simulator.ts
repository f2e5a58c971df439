import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.ts';
import { AT_MESSAGING_PATH, AT_STATUS, AT_USER_PATH, type AtRecipient, isAccepted, messageParts } from './protocol.ts';

export const SMS_SIMULATOR_USERNAME = 'sandbox';
export const SMS_SIMULATOR_API_KEY = 'filamu-sms-simulator';
/** Per part, in the shape the gateway writes costs. */
const COST_PER_PART_UGX = 35;
const INBOX_SIZE = 200;
/** The simulated account's starting balance; each accepted part is taken from it. */
const OPENING_BALANCE_UGX = 50_000;
const BODY_LIMIT = 8 * 1024;

/**
 * What the simulator does with one recipient. Tests script these; otherwise the number decides (decision 0146):
 * 2567000004NN / 2567000005NN answer that statusCode (401–409, 500–502), 256700000900 answers only after
 * `slowMs` (having accepted), 256700000911 is accepted and then reported Failed, 256700000999 gets HTTP 500.
 */
type Behaviour =
  | { kind: 'accept' }
  | { kind: 'status'; code: number }
  | { kind: 'http'; status: number }
  | { kind: 'slow'; ms: number }
  | { kind: 'undelivered'; reason: string };

interface SimulatedMessage {
  messageId: string;
  /** As sent: +256… */
  to: string;
  from: string | null;
  text: string;
  parts: number;
  receivedAt: string;
  /** `Sent` until the delivery report, then `Success` or `Failed`. */
  status: string;
}

export interface SmsSimulator {
  app: Hono;
  /** Accepted messages, newest first; optionally to one number (canonical or +international). */
  messages(to?: string): SimulatedMessage[];
  /** Every send request seen, accepted or not (tests count double sends with it). */
  requests(): number;
  /** Makes the user-data endpoint answer this HTTP status (tests of an unreadable balance); null: answer normally. */
  failUserData(status: number | null): void;
  /** Behaviours for the next recipients, in order, before the number's own. */
  script(...behaviours: Behaviour[]): void;
  /** Where delivery reports go (the app binds its handler, the same one the callback route runs). */
  bindReports(handler: (form: URLSearchParams) => Promise<void>): void;
  close(): void;
}

export interface SmsSimulatorOptions {
  clock: Clock;
  logger?: Logger;
  /** Time between an accepted message and its delivery report; default 500 ms. */
  deliveryDelayMs?: number;
  /** How long a `slow` number waits before answering; default 30 s (longer than the adapter's timeout). */
  slowMs?: number;
}

function numberBehaviour(number: string, slowMs: number): Behaviour {
  const digits = number.replace(/\D/g, '');
  const magic = /^256700000(\d{3})$/.exec(digits);
  if (!magic) return { kind: 'accept' };
  const tail = Number(magic[1]);
  if (AT_STATUS[tail] && !isAccepted(tail)) return { kind: 'status', code: tail };
  if (tail === 900) return { kind: 'slow', ms: slowMs };
  if (tail === 911) return { kind: 'undelivered', reason: 'DeliveryFailure' };
  if (tail === 999) return { kind: 'http', status: 500 };
  return { kind: 'accept' };
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });

/** Africa's Talking's messaging API, simulated: the same request, answer, refusals and delivery reports. */
export function createSmsSimulator(options: SmsSimulatorOptions): SmsSimulator {
  const deliveryDelayMs = options.deliveryDelayMs ?? 500;
  const slowMs = options.slowMs ?? 30_000;
  const inbox: SimulatedMessage[] = [];
  const scripted: Behaviour[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let requestCount = 0;
  let balance = OPENING_BALANCE_UGX;
  let userDataStatus: number | null = null;
  let reports: ((form: URLSearchParams) => Promise<void>) | null = null;

  const report = (message: SimulatedMessage, status: string, failureReason?: string) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      message.status = status;
      const form = new URLSearchParams({
        id: message.messageId,
        status,
        phoneNumber: message.to,
        networkCode: '64110',
        retryCount: '0',
      });
      if (failureReason) form.set('failureReason', failureReason);
      reports?.(form).catch((error: unknown) => options.logger?.warn({ err: error }, 'sms simulator: report failed'));
    }, deliveryDelayMs);
    timer.unref();
    timers.add(timer);
  };

  const app = new Hono();
  // User data: the same authentication as sending; the balance in the shape the gateway writes it (decision 0157).
  app.get(AT_USER_PATH, (c) => {
    if (c.req.header('apiKey') !== SMS_SIMULATOR_API_KEY || c.req.query('username') !== SMS_SIMULATOR_USERNAME) {
      return c.text('The supplied authentication is invalid', 401);
    }
    if (userDataStatus !== null) return c.text('Internal Server Error', userDataStatus as 500);
    return c.json({ UserData: { balance: `UGX ${balance.toFixed(4)}` } }, 200);
  });
  app.post(AT_MESSAGING_PATH, async (c) => {
    requestCount += 1;
    if (c.req.header('apiKey') !== SMS_SIMULATOR_API_KEY) {
      return c.text('The supplied authentication is invalid', 401);
    }
    const raw = await c.req.text();
    if (raw.length > BODY_LIMIT) return c.text('Request body too large', 413);
    const form = new URLSearchParams(raw);
    if (form.get('username') !== SMS_SIMULATOR_USERNAME) {
      return c.text('The supplied authentication is invalid', 401);
    }
    const to = form.get('to');
    const text = form.get('message');
    if (!to) return c.text('Must have to set', 400);
    if (!text) return c.text('Must have message set', 400);

    const recipients: AtRecipient[] = [];
    let slow = 0;
    for (const number of to.split(',').map((n) => n.trim())) {
      const behaviour = scripted.shift() ?? numberBehaviour(number, slowMs);
      if (behaviour.kind === 'http') return c.text('Internal Server Error', behaviour.status as 500);
      if (!/^\+\d{7,15}$/.test(number)) {
        recipients.push({ statusCode: 403, number, status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' });
        continue;
      }
      if (behaviour.kind === 'status') {
        const status = AT_STATUS[behaviour.code] ?? 'Failed';
        recipients.push({ statusCode: behaviour.code, number, status, cost: '0', messageId: 'None' });
        continue;
      }
      const parts = messageParts(text);
      const message: SimulatedMessage = {
        messageId: `ATXid_${randomBytes(16).toString('hex')}`,
        to: number,
        from: form.get('from'),
        text,
        parts,
        receivedAt: options.clock.now().toISOString(),
        status: 'Sent',
      };
      inbox.unshift(message);
      balance -= COST_PER_PART_UGX * parts;
      inbox.length = Math.min(inbox.length, INBOX_SIZE);
      // What a person running the app locally reads their code from (decision 0147).
      // A password (agent credentials) never goes into the log: the admin was shown it, the inbox above has it.
      const logged = text.replace(/Password: \S+/g, 'Password: [not logged]');
      options.logger?.info(
        { sms: { to: number, text: logged, messageId: message.messageId } },
        'sms simulator: message',
      );
      if (behaviour.kind === 'slow') slow = Math.max(slow, behaviour.ms);
      if (behaviour.kind === 'undelivered') report(message, 'Failed', behaviour.reason);
      else report(message, 'Success');
      recipients.push({
        statusCode: 101,
        number,
        status: 'Success',
        cost: `UGX ${(COST_PER_PART_UGX * parts).toFixed(4)}`,
        messageId: message.messageId,
        messageParts: parts,
      });
    }
    // Accepted first, answered late: the gateway that times out after taking the message.
    if (slow > 0) await sleep(slow);
    const sent = recipients.filter((r) => isAccepted(r.statusCode)).length;
    const total = recipients.reduce((sum, r) => sum + (Number(r.cost.replace(/[^\d.]/g, '')) || 0), 0);
    return c.json(
      {
        SMSMessageData: {
          Message: `Sent to ${sent}/${recipients.length} Total Cost: UGX ${total.toFixed(4)}`,
          Recipients: recipients,
        },
      },
      201,
    );
  });

  return {
    app,
    messages: (to) => {
      const digits = to?.replace(/\D/g, '');
      return inbox.filter((m) => !digits || m.to.replace(/\D/g, '') === digits).map((m) => ({ ...m }));
    },
    requests: () => requestCount,
    failUserData: (status) => {
      userDataStatus = status;
    },
    script: (...behaviours) => void scripted.push(...behaviours),
    bindReports: (handler) => {
      reports = handler;
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
