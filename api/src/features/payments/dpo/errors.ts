// How a DPO call fails: transport or protocol, and which failures may be tried again.
import { AppError } from '../../../http/errors.ts';
import { type DpoOperation } from './port.ts';

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
export const NEVER_SENT = new Set([
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

export function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const cause = (error as Error & { cause?: unknown }).cause;
  const causeCode = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
  return causeCode ?? error.message;
}
