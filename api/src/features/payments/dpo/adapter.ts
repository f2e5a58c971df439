// The DPO API3G transport: the XML sent over HTTPS, retries, and the exchange log.
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
  type XmlObject,
  type XmlTree,
} from './xml.ts';
import { GatewayError, NEVER_SENT, RETRY_POLICY, describe } from './errors.ts';
import {
  formatAmount,
  formatServiceDate,
  normaliseUgandaPhone,
  plainDescription,
  verifyOutcome,
} from './formatting.ts';
import { type DpoOperation, type GatewayExchange, type PaymentGateway } from './port.ts';

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
