import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { MOBILE_MONEY } from '@filamu/shared';
import type { Clock } from '../../../lib/clock.ts';
import { buildResponseXml, child, isRepeated, parseXml, RawXml, text, type XmlObject, type XmlTree } from './xml.ts';

/**
 * A protocol-faithful DPO API3G v6 simulator (dpo-api3g.md), meant to be mounted at `/sandbox/dpo/API/v6/`.
 *
 * One POST endpoint; the operation is named in `<Request>` (exact, documented spelling). It answers DPO's XML shapes,
 * including its quirks: `StatusCode` for ChargeTokenMobile but `Result` for generic errors, a GetMobilePaymentOptions
 * success without any code, and instructions holding a bare `&` and entities without `;` (P7).
 *
 * A mobile charge is decided by the phone number's last digit:
 *   1 → 901 declined · 2 → never paid (900, then 903 once the PTL passes) · 3 → 904 cancelled ·
 *   4 → 002 over/underpaid · anything else → 000 paid.
 * The outcome lands `paymentDelayMs` after the charge (measured with the injected clock); until then verifyToken says 900.
 * On 000 the `notify` callback (DPO's pushPayments) runs exactly once for that token.
 */

export const DPO_SANDBOX_COMPANY_TOKEN = '5A1D8F3E-7C2B-4E9A-9D61-0F4B2C8E7A13';
export const DPO_SANDBOX_MNOS = ['MTNmobilemoney', 'Mobile_Airtel_UG'] as const;

export interface DpoSandboxOptions {
  clock: Clock;
  /** The CompanyToken callers must send (default DPO_SANDBOX_COMPANY_TOKEN). */
  companyToken?: string;
  /** Time between a charge and its outcome (default 3000 ms, on the injected clock). */
  paymentDelayMs?: number;
  /** PTL used when createToken sends none (DPO's own default is 96 hours). */
  ptlMinutes?: number;
  /** DPO's push after a successful payment; called once per paid token. Errors are swallowed. */
  notify?: (transToken: string) => Promise<void>;
  /** Mobile terminals enabled on the simulated account (default MTN and Airtel Uganda). */
  mnos?: readonly string[];
  /** GetMobilePaymentOptions answer: 'v6' (paymentoptions only, default) or 'v7' (adds Code/Explanation, fee, total). */
  mobileOptionsFormat?: 'v6' | 'v7';
  /** Background settling for pushes without polling (default 1000 ms on a real timer; 0 disables). */
  settleIntervalMs?: number;
  /** Oldest transactions are forgotten beyond this (default 10 000). */
  maxTransactions?: number;
}

export type SandboxState = 'open' | 'paid' | 'review' | 'declined' | 'expired' | 'cancelled';

export interface SandboxTransaction {
  transToken: string;
  transRef: string;
  companyRef: string | undefined;
  amount: string;
  currency: string;
  description: string;
  createdAt: Date;
  expiresAt: Date;
  state: SandboxState;
  charge: { phoneNumber: string; mno: string; at: Date; requests: number } | undefined;
  paidAmount: string | undefined;
  customerPhone: string | undefined;
  customerEmail: string | undefined;
  websiteVerified: boolean;
  notified: boolean;
}

export interface DpoSandbox {
  /** Mount with `app.route('/sandbox/dpo/API/v6', sandbox.app)`; answers POST on any path below it. */
  app: Hono;
  companyToken: string;
  /** Re-evaluates every transaction against the clock now and waits for every push it (or anything before) started. */
  settle(): Promise<void>;
  /** A snapshot of one transaction (for tests and the dev UI). */
  transaction(transToken: string): SandboxTransaction | undefined;
  /** Stops the background settling timer. */
  close(): void;
}

const SUPPORTED_CURRENCIES = new Set(['UGX', 'USD', 'KES', 'TZS', 'RWF', 'ZMW']);
const MAX_BODY_CHARS = 64 * 1024;

const VERIFY_ANSWERS: Record<SandboxState, [string, string]> = {
  open: ['900', 'Transaction not paid yet'],
  paid: ['000', 'Transaction Paid'],
  review: ['002', 'Transaction overpaid/underpaid'],
  declined: ['901', 'Transaction declined'],
  expired: ['903', 'The transaction passed the Payment Time Limit'],
  cancelled: ['904', 'Transaction cancelled'],
};

/**
 * Instructions as DPO sends them: raw text with a bare `&` and entities lacking `;` (P7). Not well-formed on
 * purpose. The USSD fallback comes from the one constant the network cards use too (docs/decisions/0025).
 */
function instructionsFor(mno: string, amount: string, currency: string): RawXml {
  if (mno.toLowerCase().includes('airtel')) {
    const airtel = MOBILE_MONEY.Mobile_Airtel_UG;
    return new RawXml(
      `1. Airtel Money will send you a prompt to pay ${currency} ${amount}.;` +
        `2. If no prompt appears, dial ${airtel.ussd} & choose ${airtel.approvalsMenu}.;` +
        '3. Enter your Airtel Money PIN to confirm.;' +
        '4. Shortly&#8218 you will receive an SMS confirmation.',
    );
  }
  const mtn = MOBILE_MONEY.MTNmobilemoney;
  return new RawXml(
    `1. MTN will send you a request to complete the payment of ${currency} ${amount}.;` +
      `2. If you don&#39t get the prompt, dial ${mtn.ussd} & select ${mtn.approvalsMenu}.;` +
      '3. Enter your Mobile Money PIN to approve.;' +
      '4. Shortly&#8218 you will receive an SMS confirmation.',
  );
}

function twoDecimals(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/** A different amount than requested, as an over/underpayment would report (whole units). */
function offAmount(amount: string): string {
  const whole = Number(amount.split('.')[0]);
  return String(whole > 1000 ? whole - 1000 : whole + 1000);
}

function transRefFor(): string {
  return `R${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;
}

export function createDpoSandbox(options: DpoSandboxOptions): DpoSandbox {
  const { clock } = options;
  const companyToken = options.companyToken ?? DPO_SANDBOX_COMPANY_TOKEN;
  const paymentDelayMs = options.paymentDelayMs ?? 3000;
  const defaultPtlMinutes = options.ptlMinutes ?? 96 * 60;
  const mnos = options.mnos ?? DPO_SANDBOX_MNOS;
  const maxTransactions = options.maxTransactions ?? 10_000;
  const transactions = new Map<string, SandboxTransaction>();
  const pushes = new Set<Promise<void>>();

  function push(tx: SandboxTransaction) {
    if (tx.notified) return;
    tx.notified = true;
    const notify = options.notify;
    if (!notify) return;
    const pending: Promise<void> = Promise.resolve()
      .then(() => notify(tx.transToken))
      .catch(() => undefined)
      .finally(() => pushes.delete(pending));
    pushes.add(pending);
  }

  /** Moves an open transaction forward according to the clock; fires the push on payment. */
  function evaluate(tx: SandboxTransaction, now: Date) {
    if (tx.state !== 'open') return;
    const expired = now.getTime() >= tx.expiresAt.getTime();
    const charge = tx.charge;
    if (charge && !charge.phoneNumber.endsWith('2')) {
      const decidedAt = charge.at.getTime() + paymentDelayMs;
      if (decidedAt < tx.expiresAt.getTime() && now.getTime() >= decidedAt) {
        const digit = charge.phoneNumber.slice(-1);
        if (digit === '1') tx.state = 'declined';
        else if (digit === '3') tx.state = 'cancelled';
        else if (digit === '4') {
          tx.state = 'review';
          tx.paidAmount = offAmount(tx.amount);
        } else {
          tx.state = 'paid';
          tx.paidAmount = tx.amount;
          push(tx);
        }
        return;
      }
    }
    if (expired) tx.state = 'expired';
  }

  function settleAll() {
    const now = clock.now();
    for (const tx of transactions.values()) evaluate(tx, now);
  }

  const xml = (body: XmlTree) =>
    new Response(buildResponseXml(body), {
      status: 200,
      headers: { 'Content-Type': 'application/xml; charset=utf-8' },
    });
  const result = (code: string, explanation: string, extra: XmlTree = {}) =>
    xml({ Result: code, ResultExplanation: explanation, ...extra });
  const status = (code: string, explanation: string) => xml({ StatusCode: code, ResultExplanation: explanation });

  function createToken(request: XmlObject): Response {
    const transaction = child(request, 'Transaction');
    if (!transaction) return result('902', 'Request missing transaction level mandatory fields - Transaction');
    for (const name of ['PaymentAmount', 'PaymentCurrency', 'CompanyRef', 'PTL', 'PTLtype']) {
      if (isRepeated(transaction, name)) return result('960', `Tag has been sent multiple times - ${name}`);
    }
    const amount = text(transaction, 'PaymentAmount')?.trim();
    if (!amount) return result('902', 'Request missing transaction level mandatory fields - PaymentAmount');
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) {
      return result('902', 'Request missing transaction level mandatory fields - PaymentAmount');
    }
    const currency = text(transaction, 'PaymentCurrency')?.trim();
    if (!currency) return result('902', 'Request missing transaction level mandatory fields - PaymentCurrency');
    if (!SUPPORTED_CURRENCIES.has(currency)) return result('904', 'Currency not supported');

    const service = child(child(request, 'Services'), 'Service');
    if (!service) return result('950', 'Request missing mandatory fields - Services');
    if (!text(service, 'ServiceType') && !text(service, 'ServiceTypeName')) {
      return result('950', 'Request missing mandatory fields - ServiceType');
    }
    const description = text(service, 'ServiceDescription');
    if (!description) return result('950', 'Request missing mandatory fields - ServiceDescription');
    const serviceDate = text(service, 'ServiceDate');
    if (!serviceDate) return result('950', 'Request missing mandatory fields - ServiceDate');
    if (!/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/.test(serviceDate)) {
      return result('950', 'Request missing mandatory fields - ServiceDate');
    }

    const companyRef = text(transaction, 'CompanyRef');
    if (companyRef && text(transaction, 'CompanyRefUnique') === '1') {
      for (const tx of transactions.values()) {
        evaluate(tx, clock.now());
        if (tx.companyRef === companyRef && tx.state === 'paid')
          return result('940', 'CompanyREF already exists and paid');
      }
    }

    const ptlText = text(transaction, 'PTL');
    const ptl = ptlText !== undefined ? Number(ptlText) : undefined;
    if (ptl !== undefined && !(Number.isFinite(ptl) && ptl > 0)) {
      return result('902', 'Request missing transaction level mandatory fields - PTL');
    }
    const ptlType = (text(transaction, 'PTLtype') ?? 'hours').toLowerCase();
    const ptlMinutes = ptl === undefined ? defaultPtlMinutes : ptlType === 'minutes' ? ptl : ptl * 60;

    const now = clock.now();
    const tx: SandboxTransaction = {
      transToken: randomUUID().toUpperCase(),
      transRef: transRefFor(),
      companyRef,
      amount,
      currency,
      description,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ptlMinutes * 60_000),
      state: 'open',
      charge: undefined,
      paidAmount: undefined,
      customerPhone: text(transaction, 'customerPhone'),
      customerEmail: text(transaction, 'customerEmail'),
      websiteVerified: false,
      notified: false,
    };
    transactions.set(tx.transToken, tx);
    while (transactions.size > maxTransactions) {
      const oldest = transactions.keys().next().value;
      if (oldest === undefined) break;
      transactions.delete(oldest);
    }
    return result('000', 'Transaction created', { TransToken: tx.transToken, TransRef: tx.transRef });
  }

  function getMobilePaymentOptions(request: XmlObject): Response {
    const token = text(request, 'TransactionToken');
    if (!token) return result('950', 'Request missing mandatory fields - TransactionToken');
    const tx = transactions.get(token);
    if (!tx || tx.state !== 'open') return result('904', "Can't MobilePay this Transaction");
    const v7 = options.mobileOptionsFormat === 'v7';
    const mobileoption = mnos.map((mno) => ({
      country: 'uganda',
      countryCode: 'UG',
      paymentname: mno,
      logo: v7 ? `https://sandbox.invalid/icons/${mno.toLowerCase()}.png` : undefined,
      celluarprefix: '256',
      amount: tx.amount,
      currency: tx.currency,
      instructions: instructionsFor(mno, tx.amount, tx.currency),
      fee: v7 ? '0.000' : undefined,
      total: v7 ? tx.amount : undefined,
    }));
    const head: XmlTree = v7
      ? { Code: '000', Explanation: 'Results Found', originalCurrency: tx.currency, originalAmount: tx.amount }
      : {};
    return xml({ ...head, paymentoptions: { mobileoption } });
  }

  function chargeTokenMobile(request: XmlObject): Response {
    const token = text(request, 'TransactionToken');
    if (!token) return status('950', 'Missing mandatory fields - TransactionToken');
    const tx = transactions.get(token);
    if (!tx) return status('951', 'Data mismatch - Transaction Token');
    const mno = text(request, 'MNO');
    if (!mno) return status('952', 'Missing MNO');
    const country = text(request, 'MNOcountry');
    if (!country) return status('953', 'Missing MNOcountry');
    const phoneNumber = text(request, 'PhoneNumber')?.trim();
    if (!phoneNumber) return status('954', 'Missing PhoneNumber');
    if (!/^256\d{9}$/.test(phoneNumber)) return status('955', 'Phone number is invalid');
    const terminal = mnos.find((name) => name.toLowerCase() === mno.toLowerCase());
    if (!terminal || country.toLowerCase() !== 'uganda') return status('956', 'Terminal not found');
    if (tx.state !== 'open') return status('904', "Can't MobilePay this Transaction");
    // A repeated charge on an open token sends a new prompt and restarts the wait (DPO behaviour unconfirmed, §11.11).
    tx.charge = { phoneNumber, mno: terminal, at: clock.now(), requests: (tx.charge?.requests ?? 0) + 1 };
    return xml({
      StatusCode: '130',
      ResultExplanation: 'New invoice',
      instructions: instructionsFor(terminal, tx.amount, tx.currency),
      RedirectOption: '0',
    });
  }

  function verifyToken(request: XmlObject): Response {
    const token = text(request, 'TransactionToken');
    const companyRef = text(request, 'CompanyRef');
    if (!token && !companyRef) return result('950', 'Request missing mandatory fields - TransactionToken');
    let tx = token ? transactions.get(token) : undefined;
    if (!token && companyRef) {
      for (const candidate of transactions.values()) if (candidate.companyRef === companyRef) tx = candidate;
    }
    if (!tx) return result('902', `Data mismatch in one of the fields - ${token ? 'TransactionToken' : 'CompanyRef'}`);
    const verifyFlag = text(request, 'VerifyTransaction') ?? '1';
    if (verifyFlag !== '0' && verifyFlag !== '1')
      return result('902', 'Data mismatch in one of the fields - VerifyTransaction');
    const [code, explanation] = VERIFY_ANSWERS[tx.state];
    if (verifyFlag === '1' && (tx.state === 'paid' || tx.state === 'review')) tx.websiteVerified = true;
    const amount = twoDecimals(tx.paidAmount ?? tx.amount);
    const settled = tx.state === 'paid' || tx.state === 'review';
    const phone = tx.charge?.phoneNumber ?? tx.customerPhone ?? '';
    return result(code, explanation, {
      CustomerName: '',
      CustomerCredit: '',
      CustomerCreditType: tx.charge ? 'Mobile' : '',
      TransactionApproval: settled ? tx.transRef.slice(1) : '',
      TransactionCurrency: tx.currency,
      TransactionAmount: amount,
      FraudAlert: '001',
      FraudExplnation: 'Low Risk (Not checked)',
      TransactionNetAmount: settled ? twoDecimals(String(Math.floor(Number(amount) * 0.97))) : '0.00',
      TransactionSettlementDate: '',
      TransactionRollingReserveAmount: '0.00',
      TransactionRollingReserveDate: '',
      CustomerPhone: phone.startsWith('256') ? phone.slice(3) : phone,
      CustomerCountry: 'Uganda',
      CustomerAddress: '',
      CustomerCity: '',
      CustomerZip: '',
      MobilePaymentRequest: tx.charge ? 'Sent' : 'Not sent',
      AccRef: '',
      CompanyRef: tx.companyRef ?? '',
      TransRef: tx.transRef,
      TransactionFinalCurrency: tx.currency,
      TransactionFinalAmount: amount,
    });
  }

  function cancelToken(request: XmlObject): Response {
    const token = text(request, 'TransactionToken');
    if (!token) return result('950', 'Request missing mandatory fields - TransactionToken');
    const tx = transactions.get(token);
    if (!tx) return result('999', 'Transaction not found');
    if (tx.state === 'open') tx.state = 'cancelled';
    if (tx.state !== 'cancelled')
      return result('999', `Transaction can not be cancelled (${VERIFY_ANSWERS[tx.state][1]})`);
    return result('000', 'Token been updated to status cancelled');
  }

  const operations: Record<string, (request: XmlObject) => Response> = {
    createToken,
    GetMobilePaymentOptions: getMobilePaymentOptions,
    ChargeTokenMobile: chargeTokenMobile,
    verifyToken,
    cancelToken,
  };

  const app = new Hono();
  app.post('*', async (c) => {
    const body = await c.req.text();
    if (body.length > MAX_BODY_CHARS) return result('804', 'Error in XML');
    const tree = parseXml(body);
    const root = tree ? tree.API3G : undefined;
    if (root === undefined || Array.isArray(root)) return result('804', 'Error in XML');
    const request: XmlObject = typeof root === 'string' ? {} : root;
    const sentToken = text(request, 'CompanyToken')?.trim();
    if (!sentToken) return result('801', 'Request missing company token');
    if (sentToken !== companyToken) return result('802', 'Company token does not exist');
    const name = text(request, 'Request')?.trim();
    const operation = name && Object.hasOwn(operations, name) ? operations[name] : undefined;
    if (!operation) return result('803', 'No request or error in Request type name');
    settleAll();
    const response = operation(request);
    settleAll();
    return response;
  });
  app.all('*', (c) => c.text('Method Not Allowed', 405));

  const timer =
    (options.settleIntervalMs ?? 1000) > 0 ? setInterval(settleAll, options.settleIntervalMs ?? 1000) : undefined;
  timer?.unref();

  return {
    app,
    companyToken,
    async settle() {
      settleAll();
      while (pushes.size > 0) await Promise.all([...pushes]);
    },
    transaction(transToken) {
      const tx = transactions.get(transToken);
      if (!tx) return undefined;
      evaluate(tx, clock.now());
      return structuredClone(tx);
    },
    close() {
      if (timer) clearInterval(timer);
    },
  };
}
