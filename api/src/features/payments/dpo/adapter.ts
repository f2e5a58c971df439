import { trimTrailing } from '@filamu/shared';
import { AppError } from '../../../http/errors.ts';
import type { Clock } from '../../../lib/clock.ts';
import { maskPersonalFields, maskPersonalXml } from './personal-data.ts';
import {
  buildRequestXml,
  flatten,
  parseApi3g,
  readMobileOptions,
  readStatus,
  splitInstructions,
  text,
  type MobileOption,
  type XmlObject,
  type XmlTree,
} from './xml.ts';

export type { MobileOption } from './xml.ts';

/** DPO's Uganda mobile-money identifiers (dpo-protocol §4.4). Prefer `paymentName` from getMobilePaymentOptions. */
export const UGANDA_MNO = { mtn: 'MTNmobilemoney', airtel: 'Mobile_Airtel_UG' } as const;

export type DpoOperation =
  'createToken' | 'GetMobilePaymentOptions' | 'ChargeTokenMobile' | 'verifyToken' | 'cancelToken';

export interface CreateTokenInput {
  /** Our own reference (the payment's transaction_id); sent with CompanyRefUnique=1. */
  companyRef: string;
  /** Major units; whole shillings for UGX; at most 2 decimals otherwise. */
  amount: number;
  /** ISO 4217, e.g. 'UGX'. */
  currency: string;
  /** Service description shown by DPO; reduced to plain text (P14). */
  description: string;
  customerPhone?: string;
  customerEmail?: string;
  redirectUrl?: string;
  backUrl?: string;
  /** ServiceDate, sent as `YYYY/MM/DD HH:MM` in East Africa Time (UTC+3). */
  serviceDate: Date;
}

export interface CreateTokenResult {
  /** DPO's TransToken (the spec's dpo_token). */
  transToken: string;
  /** DPO's TransRef (appears as TransactionRef in pushes). */
  transRef: string;
  code: string;
  explanation: string;
  /** When the token stops being payable (PTL from `clock.now()` at creation). */
  expiresAt: Date;
}

export interface MobileOptionsResult {
  code: string | undefined;
  explanation: string;
  options: MobileOption[];
}

export interface ChargeMobileInput {
  transToken: string;
  /** Uganda number in any usual form (07…, +256…, 256…); sent as 256XXXXXXXXX. */
  phoneNumber: string;
  /** `paymentName` as returned by getMobilePaymentOptions (e.g. MTNmobilemoney, Mobile_Airtel_UG). */
  mno: string;
  country: 'uganda';
}

export interface ChargeMobileResult {
  /** '130' ("New invoice": the prompt is on its way — NOT a payment) or '000'. */
  code: string;
  explanation: string;
  /** Instructions for the customer, entities decoded; render as plain text. */
  instructions: string;
  steps: string[];
  /** DPO's RedirectOption flag; logged and otherwise ignored (P9). */
  redirectOption: boolean;
}

/**
 * The normalised verifyToken outcome (security R16):
 * only `paid` may grant, and only after the amount, currency and CompanyRef are checked; `review` is never granted.
 */
export type VerifyOutcome = 'paid' | 'review' | 'pending' | 'declined' | 'expired' | 'cancelled' | 'error';

export interface VerifyResult {
  outcome: VerifyOutcome;
  /** The raw 3-digit code as a string ('000', never 0). */
  code: string;
  explanation: string;
  transactionAmount?: string;
  transactionCurrency?: string;
  transactionFinalAmount?: string;
  transactionFinalCurrency?: string;
  companyRef?: string;
  transRef?: string;
  transactionApproval?: string;
  mobilePaymentRequest?: string;
  /** Every text element of the response, for the payment log (R18); the payer's phone, name and email masked. */
  raw: Record<string, string>;
  checkedAt: Date;
}

export interface PaymentGateway {
  createToken(input: CreateTokenInput): Promise<CreateTokenResult>;
  getMobilePaymentOptions(transToken: string): Promise<MobileOptionsResult>;
  chargeTokenMobile(input: ChargeMobileInput): Promise<ChargeMobileResult>;
  /**
   * Never throws for a DPO answer: codes map to an outcome. Throws GatewayError only when DPO could not be read.
   * `markVerified` is DPO's VerifyTransaction (default 1, as DPO's); send false while merely polling (§6.1).
   */
  verifyToken(transToken: string, options?: { markVerified?: boolean }): Promise<VerifyResult>;
  cancelToken(transToken: string): Promise<{ code: string; explanation: string }>;
}

/**
 * One request/response exchange, for the payment log (R18). The company token is already redacted, and the payer's
 * phone, name and email masked (personal-data.ts).
 */
export interface GatewayExchange {
  operation: DpoOperation;
  attempt: number;
  at: Date;
  durationMs: number;
  requestXml: string;
  httpStatus?: number;
  responseXml?: string;
  error?: string;
}

export interface DpoGatewayOptions {
  /** e.g. https://secure.3gdirectpay.com/API/v6/ (keep the trailing slash). */
  apiUrl: string;
  companyToken: string;
  /** The ServiceType code DPO assigned to the account. */
  serviceType: string | number;
  /** Payment Time Limit, always sent explicitly with PTLtype=minutes (P3). */
  ptlMinutes: number;
  /** Per attempt, covering connect, headers and body. */
  timeoutMs: number;
  /**
   * Extra attempts after the first, on network errors, timeouts and HTTP 5xx — for ChargeTokenMobile only when the
   * request certainly never left (RETRY_POLICY, decision 0086).
   */
  retries: number;
  /** First back-off delay; doubles on each retry. Default 250 ms. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  clock: Clock;
  onExchange?: (exchange: GatewayExchange) => void;
}

export type GatewayErrorKind = 'transport' | 'protocol';

/**
 * When a failed attempt may be repeated (decision 0086). `any-failure`: network errors, timeouts and 5xx — for calls
 * that move no money, where a duplicate is harmless (a second createToken leaves only an unpaid token nobody knows,
 * which lapses at the PTL; CompanyRefUnique refuses a ref only once it is paid). `unsent`: only when the request
 * certainly never reached DPO — a repeated ChargeTokenMobile may push a second prompt to the payer's phone.
 */
export type RetryPolicy = 'any-failure' | 'unsent';
export const RETRY_POLICY: Record<DpoOperation, RetryPolicy> = {
  createToken: 'any-failure',
  GetMobilePaymentOptions: 'any-failure',
  ChargeTokenMobile: 'unsent',
  verifyToken: 'any-failure',
  cancelToken: 'any-failure',
};

/**
 * Errors of a connection that was never made: no byte of the request left this machine. A timeout of the whole
 * attempt is not among them (it cannot tell a slow connect from a lost answer), nor a reset (it may come after DPO read
 * the request).
 */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Raised when DPO cannot be reached (`transport`: network error, timeout or 5xx after the retries RETRY_POLICY
 * allows) or when it answers something other than success (`protocol`: an unreadable document, or a DPO error code in `dpoCode`).
 * It is an AppError ('unavailable', 503), so an unhandled one becomes the usual envelope. It never carries the company token.
 */
export class GatewayError extends AppError {
  readonly kind: GatewayErrorKind;
  readonly operation: DpoOperation;
  readonly dpoCode: string | undefined;
  readonly explanation: string | undefined;
  readonly httpStatus: number | undefined;
  readonly attempts: number;
  /**
   * DPO may have acted on the request but its answer was lost (5xx, a timeout or reset after sending, an unreadable
   * body). For ChargeTokenMobile the caller must verifyToken before telling the payer anything (decision 0087).
   */
  readonly outcomeUnknown: boolean;

  constructor(details: {
    kind: GatewayErrorKind;
    operation: DpoOperation;
    message: string;
    dpoCode?: string;
    explanation?: string;
    httpStatus?: number;
    attempts: number;
    outcomeUnknown?: boolean;
  }) {
    super('unavailable', details.message);
    this.name = 'GatewayError';
    this.kind = details.kind;
    this.operation = details.operation;
    this.dpoCode = details.dpoCode;
    this.explanation = details.explanation;
    this.httpStatus = details.httpStatus;
    this.attempts = details.attempts;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

/** verifyToken codes → outcome (dpo-protocol §6.3; R16). Anything unknown is `error`, which never grants. */
export function verifyOutcome(code: string): VerifyOutcome {
  switch (code) {
    case '000':
      return 'paid';
    case '002':
      return 'review';
    case '001':
    case '003':
    case '005':
    case '007':
    case '900':
      return 'pending';
    case '901':
    case '902':
      return 'declined';
    case '903':
      return 'expired';
    case '904':
      return 'cancelled';
    default:
      return 'error';
  }
}

/** Formats an amount for PaymentAmount: '.' decimal separator, no float noise, whole units for UGX (P1). */
export function formatAmount(amount: number, currency: string): string {
  if (!Number.isFinite(amount) || amount <= 0) throw new RangeError('The amount must be a positive number.');
  if (currency === 'UGX') {
    if (!Number.isSafeInteger(amount)) throw new RangeError('UGX amounts are whole shillings.');
    return String(amount);
  }
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6) throw new RangeError('At most 2 decimals are allowed.');
  return Number.isInteger(amount) ? String(amount) : (cents / 100).toFixed(2);
}

/** Compares two DPO amounts numerically without floating point ('15000' equals '15000.00'). */
export function sameAmount(a: string | number, b: string | number): boolean {
  const norm = (value: string | number) => {
    const s = String(value).trim();
    const match = /^(\d+)(?:\.(\d+))?$/.exec(s);
    if (!match) return null;
    const whole = match[1]!.replace(/^0+(?=\d)/, '');
    const fraction = trimTrailing(match[2] ?? '', '0');
    return fraction ? `${whole}.${fraction}` : whole;
  };
  const left = norm(a);
  return left !== null && left === norm(b);
}

/** 07XXXXXXXX, +256…, 256…, with spaces or dashes → 256XXXXXXXXX; other input → its digits. */
export function normaliseUgandaPhone(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (/^0\d{9}$/.test(digits)) return `256${digits.slice(1)}`;
  if (/^00256\d{9}$/.test(digits)) return digits.slice(2);
  if (/^\d{9}$/.test(digits) && digits.startsWith('7')) return `256${digits}`;
  return digits;
}

/** ServiceDescription as plain ASCII words, the way DPO's plugin sanitises it (P14). */
function plainDescription(description: string): string {
  const clean = description
    .replace(/&/g, ' and ')
    .replace(/[<>/]/g, '_')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.slice(0, 200) || 'Payment';
}

/** `YYYY/MM/DD HH:MM` in East Africa Time (UTC+3, no daylight saving). */
export function formatServiceDate(date: Date): string {
  const eat = new Date(date.getTime() + 3 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${eat.getUTCFullYear()}/${pad(eat.getUTCMonth() + 1)}/${pad(eat.getUTCDate())} ${pad(eat.getUTCHours())}:${pad(eat.getUTCMinutes())}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createDpoGateway(options: DpoGatewayOptions): PaymentGateway {
  const { apiUrl, companyToken, clock } = options;
  const doFetch = options.fetch ?? fetch;
  const retries = Math.max(0, Math.floor(options.retries));
  const retryDelayMs = options.retryDelayMs ?? 250;
  if (!companyToken) throw new Error('DPO company token is required.');
  if (!(options.ptlMinutes > 0)) throw new Error('DPO PTL (minutes) must be positive.');

  const redact = (value: string) => value.split(companyToken).join('[redacted]');

  function record(exchange: GatewayExchange) {
    if (!options.onExchange) return;
    try {
      options.onExchange({
        ...exchange,
        requestXml: maskPersonalXml(redact(exchange.requestXml)),
        responseXml: exchange.responseXml === undefined ? undefined : maskPersonalXml(redact(exchange.responseXml)),
        error: exchange.error === undefined ? undefined : redact(exchange.error),
      });
    } catch {
      // A failing logger must not fail the payment call.
    }
  }

  /**
   * POSTs one request, retrying failures as RETRY_POLICY allows; returns the API3G children of the answer.
   * A readable answer has a status code (StatusCode/Result/Code) or, for the v6 GetMobilePaymentOptions, options.
   */
  async function call(operation: DpoOperation, body: XmlTree): Promise<XmlObject> {
    const requestXml = buildRequestXml(companyToken, operation, body);
    const attempts = retries + 1;
    const policy = RETRY_POLICY[operation];
    let lastProblem = '';
    let lastStatus: number | undefined;
    let attempt = 0;
    let outcomeUnknown = false;
    while (attempt < attempts) {
      attempt += 1;
      if (attempt > 1) await sleep(retryDelayMs * 2 ** (attempt - 2));
      const started = Date.now();
      const at = clock.now();
      let status: number;
      let responseXml: string;
      try {
        const response = await doFetch(apiUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/xml; charset=utf-8', Accept: 'application/xml, text/xml' },
          body: requestXml,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.status;
        responseXml = await response.text();
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        const cause = describe(error);
        lastProblem = timedOut ? `timed out after ${options.timeoutMs} ms` : `network error (${cause})`;
        lastStatus = undefined;
        outcomeUnknown = timedOut || !NEVER_SENT.has(cause);
        record({ operation, attempt, at, durationMs: Date.now() - started, requestXml, error: lastProblem });
        if (outcomeUnknown && policy === 'unsent') break;
        continue;
      }
      record({ operation, attempt, at, durationMs: Date.now() - started, requestXml, httpStatus: status, responseXml });
      if (status >= 500) {
        lastProblem = `HTTP ${status}`;
        lastStatus = status;
        outcomeUnknown = true;
        if (policy === 'unsent') break;
        continue;
      }
      // 2xx–4xx: never retried. DPO may put an API3G body on a non-2xx answer (P17), so parse regardless.
      const root = parseApi3g(responseXml);
      const readable = root && (readStatus(root).code !== undefined || readMobileOptions(root).length > 0);
      if (!root || !readable) {
        throw new GatewayError({
          kind: 'protocol',
          operation,
          httpStatus: status,
          attempts: attempt,
          outcomeUnknown: true,
          message: redact(`DPO ${operation}: unreadable response (HTTP ${status}).`),
        });
      }
      return root;
    }
    throw new GatewayError({
      kind: 'transport',
      operation,
      httpStatus: lastStatus,
      attempts: attempt,
      outcomeUnknown,
      message: redact(`DPO ${operation}: ${lastProblem} after ${attempt} attempt${attempt === 1 ? '' : 's'}.`),
    });
  }

  function rejected(operation: DpoOperation, root: XmlObject): GatewayError {
    const { code, explanation } = readStatus(root);
    return new GatewayError({
      kind: 'protocol',
      operation,
      dpoCode: code,
      explanation: redact(explanation),
      attempts: 1,
      message: redact(`DPO ${operation} answered ${code ?? '(no code)'}: ${explanation || 'no explanation'}.`),
    });
  }

  return {
    async createToken(input) {
      const currency = input.currency.trim().toUpperCase();
      if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError('The currency must be an ISO 4217 code.');
      const amount = formatAmount(input.amount, currency);
      const phone = input.customerPhone ? normaliseUgandaPhone(input.customerPhone) : undefined;
      const root = await call('createToken', {
        Transaction: {
          PaymentAmount: amount,
          PaymentCurrency: currency,
          CompanyRef: input.companyRef,
          CompanyRefUnique: '1',
          RedirectURL: input.redirectUrl,
          BackURL: input.backUrl,
          PTL: String(options.ptlMinutes),
          PTLtype: 'minutes',
          customerEmail: input.customerEmail,
          customerPhone: phone || undefined,
          customerCountry: 'UG',
          DefaultPayment: 'MO',
          DefaultPaymentCountry: 'uganda',
        },
        Services: {
          Service: {
            ServiceType: String(options.serviceType),
            ServiceDescription: plainDescription(input.description),
            ServiceDate: formatServiceDate(input.serviceDate),
          },
        },
      });
      const { code, explanation } = readStatus(root);
      const transToken = text(root, 'TransToken');
      const transRef = text(root, 'TransRef');
      if (code !== '000' || !transToken) throw rejected('createToken', root);
      return {
        transToken,
        transRef: transRef ?? '',
        code,
        explanation,
        expiresAt: new Date(clock.now().getTime() + options.ptlMinutes * 60_000),
      };
    },

    async getMobilePaymentOptions(transToken) {
      const root = await call('GetMobilePaymentOptions', { TransactionToken: transToken });
      const { code, explanation } = readStatus(root);
      const options = readMobileOptions(root);
      // The v6 success shape has no code at all, only paymentoptions (§4.2).
      if (options.length === 0 && code !== undefined && code !== '000') throw rejected('GetMobilePaymentOptions', root);
      return { code, explanation, options };
    },

    async chargeTokenMobile(input) {
      const root = await call('ChargeTokenMobile', {
        TransactionToken: input.transToken,
        PhoneNumber: normaliseUgandaPhone(input.phoneNumber),
        MNO: input.mno,
        MNOcountry: input.country,
      });
      const { code, explanation } = readStatus(root);
      if (code !== '130' && code !== '000') throw rejected('ChargeTokenMobile', root);
      const instructions = text(root, 'instructions') ?? '';
      return {
        code,
        explanation,
        instructions,
        steps: splitInstructions(instructions),
        redirectOption: text(root, 'RedirectOption')?.trim() === '1',
      };
    },

    async verifyToken(transToken, verifyOptions) {
      const markVerified = verifyOptions?.markVerified ?? true;
      const root = await call('verifyToken', {
        TransactionToken: transToken,
        VerifyTransaction: markVerified ? '1' : '0',
      });
      const { code, explanation } = readStatus(root);
      const resultCode = code ?? '';
      return {
        outcome: verifyOutcome(resultCode),
        code: resultCode,
        explanation,
        transactionAmount: text(root, 'TransactionAmount'),
        transactionCurrency: text(root, 'TransactionCurrency'),
        transactionFinalAmount: text(root, 'TransactionFinalAmount'),
        transactionFinalCurrency: text(root, 'TransactionFinalCurrency'),
        companyRef: text(root, 'CompanyRef'),
        transRef: text(root, 'TransRef') ?? text(root, 'TransactionRef'),
        transactionApproval: text(root, 'TransactionApproval'),
        mobilePaymentRequest: text(root, 'MobilePaymentRequest'),
        raw: maskPersonalFields(flatten(root)),
        checkedAt: clock.now(),
      };
    },

    async cancelToken(transToken) {
      const root = await call('cancelToken', { TransactionToken: transToken });
      const { code, explanation } = readStatus(root);
      if (code !== '000') throw rejected('cancelToken', root);
      return { code, explanation };
    },
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const cause = (error as Error & { cause?: unknown }).cause;
  const causeCode = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
  return causeCode ?? error.message;
}
