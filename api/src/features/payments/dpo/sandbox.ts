// Longer than 300 lines on purpose: the DPO API3G simulator answers every operation the app uses in one place, so it
// reads side by side with docs/reference/dpo-protocol.md.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MOBILE_MONEY } from '@filamu/shared';
import type { Database } from '../../../db/client.ts';
import { dpoSandboxTransactions } from '../../../db/schema.ts';
import { AppError } from '../../../http/errors.ts';
import type { Clock } from '../../../lib/clock.ts';
import { hitLimits } from '../../rate-limit/limiter.ts';
import { dpoSandboxRequests } from '../../rate-limit/limits.ts';
import { buildResponseXml, child, isRepeated, parseXml, RawXml, text, type XmlObject, type XmlTree } from './xml.ts';

/**
 * A protocol-faithful DPO API3G v6 simulator (dpo-protocol), meant to be mounted at `/sandbox/dpo/API/v6/`.
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
 *
 * Its state lives in the database (`dpo_sandbox_transactions`, decision 0088), so every replica mounting it answers
 * as one gateway, the way DPO does: an outcome is computed from the stored charge time whenever a token is read, and
 * the replica whose conditional UPDATE records a payment is the one that pushes it.
 */

export const DPO_SANDBOX_COMPANY_TOKEN = '5A1D8F3E-7C2B-4E9A-9D61-0F4B2C8E7A13';
const DPO_SANDBOX_MNOS = ['MTNmobilemoney', 'Mobile_Airtel_UG'] as const;

export interface DpoSandboxOptions {
  clock: Clock;
  /** Where the simulated gateway keeps its transactions; every replica on this database shares them. */
  database: Database;
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
  /** Transactions created longer ago than this are forgotten, on the next createToken (default 7 days). */
  retainMs?: number;
  /**
   * Who a request counts against for the per-address rate limit (`dpoSandboxRequests`); without it, no limit.
   * The app's mount sets it: anyone may call the simulator, and each createToken writes a row.
   */
  clientAddress?: (c: Context) => string;
}

type SandboxState = 'open' | 'paid' | 'review' | 'declined' | 'expired' | 'cancelled';

interface SandboxTransaction {
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
}

export interface DpoSandbox {
  /** Mount with `app.route('/sandbox/dpo/API/v6', sandbox.app)`; answers POST on any path below it. */
  app: Hono;
  companyToken: string;
  /** Re-evaluates every open transaction against the clock now and waits for every push this replica started. */
  settle(): Promise<void>;
  /** A snapshot of one transaction (for tests and the dev UI). */
  transaction(transToken: string): Promise<SandboxTransaction | undefined>;
  /** Stops the background settling timer. */
  close(): void;
}

const SUPPORTED_CURRENCIES = new Set(['UGX', 'USD', 'KES', 'TZS', 'RWF', 'ZMW']);
/** The largest request: DPO requests are a few hundred bytes. Refused with 413 while reading, never buffered past. */
export const DPO_SANDBOX_MAX_BODY_BYTES = 64 * 1024;

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

type Row = typeof dpoSandboxTransactions.$inferSelect;

/** Where an open transaction stands at `now`: a charge lands `delayMs` after it unless the PTL passes first. */
function reached(row: Row, now: Date, delayMs: number): Pick<Row, 'state' | 'paidAmount'> {
  if (row.state !== 'open') return row;
  const phone = row.chargePhone;
  if (phone && row.chargedAt && !phone.endsWith('2')) {
    const decidedAt = row.chargedAt.getTime() + delayMs;
    if (decidedAt < row.expiresAt.getTime() && now.getTime() >= decidedAt) {
      const digit = phone.slice(-1);
      if (digit === '1') return { state: 'declined', paidAmount: null };
      if (digit === '3') return { state: 'cancelled', paidAmount: null };
      if (digit === '4') return { state: 'review', paidAmount: offAmount(row.amount) };
      return { state: 'paid', paidAmount: row.amount };
    }
  }
  if (now.getTime() >= row.expiresAt.getTime()) return { state: 'expired', paidAmount: null };
  return row;
}

function snapshot(row: Row): SandboxTransaction {
  return {
    transToken: row.transToken,
    transRef: row.transRef,
    companyRef: row.companyRef ?? undefined,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    state: row.state,
    charge:
      row.chargePhone && row.chargeMno && row.chargedAt
        ? { phoneNumber: row.chargePhone, mno: row.chargeMno, at: row.chargedAt, requests: row.chargeRequests }
        : undefined,
    paidAmount: row.paidAmount ?? undefined,
    customerPhone: row.customerPhone ?? undefined,
    customerEmail: row.customerEmail ?? undefined,
    websiteVerified: row.websiteVerified,
  };
}

export function createDpoSandbox(options: DpoSandboxOptions): DpoSandbox {
  const { clock } = options;
  const db = options.database.db;
  const companyToken = options.companyToken ?? DPO_SANDBOX_COMPANY_TOKEN;
  const paymentDelayMs = options.paymentDelayMs ?? 3000;
  const defaultPtlMinutes = options.ptlMinutes ?? 96 * 60;
  const mnos = options.mnos ?? DPO_SANDBOX_MNOS;
  const retainMs = options.retainMs ?? 7 * 24 * 3_600_000;
  const pushes = new Set<Promise<void>>();
  const table = dpoSandboxTransactions;

  function push(transToken: string) {
    const notify = options.notify;
    if (!notify) return;
    const pending: Promise<void> = Promise.resolve()
      .then(() => notify(transToken))
      .catch(() => undefined)
      .finally(() => pushes.delete(pending));
    pushes.add(pending);
  }

  /**
   * Records where an open transaction has got to. The UPDATE is conditional on `open`, so when replicas race exactly
   * one records the outcome — and only that one pushes a payment.
   */
  async function advance(row: Row): Promise<Row> {
    const next = reached(row, clock.now(), paymentDelayMs);
    if (next.state === row.state) return row;
    const [moved] = await db
      .update(table)
      .set({ state: next.state, paidAmount: next.paidAmount })
      .where(and(eq(table.transToken, row.transToken), eq(table.state, 'open')))
      .returning();
    if (moved?.state === 'paid') push(moved.transToken);
    return moved ?? (await find(row.transToken))!;
  }

  async function find(transToken: string): Promise<Row | undefined> {
    const [row] = await db.select().from(table).where(eq(table.transToken, transToken));
    return row;
  }

  async function current(transToken: string): Promise<Row | undefined> {
    const row = await find(transToken);
    return row && advance(row);
  }

  async function settleAll() {
    const now = clock.now();
    const due = await db
      .select()
      .from(table)
      .where(
        and(
          eq(table.state, 'open'),
          or(
            lte(table.expiresAt, now),
            and(isNotNull(table.chargedAt), lte(table.chargedAt, new Date(now.getTime() - paymentDelayMs))),
          ),
        ),
      );
    for (const row of due) await advance(row);
  }

  const xml = (body: XmlTree) =>
    new Response(buildResponseXml(body), {
      status: 200,
      headers: { 'Content-Type': 'application/xml; charset=utf-8' },
    });
  const result = (code: string, explanation: string, extra: XmlTree = {}) =>
    xml({ Result: code, ResultExplanation: explanation, ...extra });
  const status = (code: string, explanation: string) => xml({ StatusCode: code, ResultExplanation: explanation });

  async function createToken(request: XmlObject): Promise<Response> {
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
      const sameRef = await db.select().from(table).where(eq(table.companyRef, companyRef));
      for (const row of sameRef) {
        if ((await advance(row)).state === 'paid') return result('940', 'CompanyREF already exists and paid');
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
    const transToken = randomUUID().toUpperCase();
    const transRef = transRefFor();
    await db.insert(table).values({
      transToken,
      transRef,
      companyRef: companyRef ?? null,
      amount,
      currency,
      description,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ptlMinutes * 60_000),
      customerPhone: text(transaction, 'customerPhone') ?? null,
      customerEmail: text(transaction, 'customerEmail') ?? null,
    });
    await db.delete(table).where(lte(table.createdAt, new Date(now.getTime() - retainMs)));
    return result('000', 'Transaction created', { TransToken: transToken, TransRef: transRef });
  }

  async function getMobilePaymentOptions(request: XmlObject): Promise<Response> {
    const token = text(request, 'TransactionToken');
    if (!token) return result('950', 'Request missing mandatory fields - TransactionToken');
    const tx = await current(token);
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

  async function chargeTokenMobile(request: XmlObject): Promise<Response> {
    const token = text(request, 'TransactionToken');
    if (!token) return status('950', 'Missing mandatory fields - TransactionToken');
    const tx = await current(token);
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
    // A repeated charge on an open token sends a new prompt and restarts the wait (DPO behaviour unconfirmed, §11.11).
    const [charged] = await db
      .update(table)
      .set({
        chargePhone: phoneNumber,
        chargeMno: terminal,
        chargedAt: clock.now(),
        chargeRequests: sql`${table.chargeRequests} + 1`,
      })
      .where(and(eq(table.transToken, token), eq(table.state, 'open')))
      .returning();
    if (!charged) return status('904', "Can't MobilePay this Transaction");
    await advance(charged);
    return xml({
      StatusCode: '130',
      ResultExplanation: 'New invoice',
      instructions: instructionsFor(terminal, tx.amount, tx.currency),
      RedirectOption: '0',
    });
  }

  async function verifyToken(request: XmlObject): Promise<Response> {
    const token = text(request, 'TransactionToken');
    const companyRef = text(request, 'CompanyRef');
    if (!token && !companyRef) return result('950', 'Request missing mandatory fields - TransactionToken');
    let found: Row | undefined;
    if (token) found = await find(token);
    else {
      // The newest token with that ref, as a lookup by ref can only name one.
      [found] = await db
        .select()
        .from(table)
        .where(eq(table.companyRef, companyRef!))
        .orderBy(desc(table.createdAt))
        .limit(1);
    }
    if (!found)
      return result('902', `Data mismatch in one of the fields - ${token ? 'TransactionToken' : 'CompanyRef'}`);
    const verifyFlag = text(request, 'VerifyTransaction') ?? '1';
    if (verifyFlag !== '0' && verifyFlag !== '1')
      return result('902', 'Data mismatch in one of the fields - VerifyTransaction');
    const tx = await advance(found);
    const [code, explanation] = VERIFY_ANSWERS[tx.state];
    if (verifyFlag === '1' && (tx.state === 'paid' || tx.state === 'review') && !tx.websiteVerified) {
      await db.update(table).set({ websiteVerified: true }).where(eq(table.transToken, tx.transToken));
    }
    const amount = twoDecimals(tx.paidAmount ?? tx.amount);
    const settled = tx.state === 'paid' || tx.state === 'review';
    const phone = tx.chargePhone ?? tx.customerPhone ?? '';
    const charged = tx.chargedAt !== null;
    return result(code, explanation, {
      CustomerName: '',
      CustomerCredit: '',
      CustomerCreditType: charged ? 'Mobile' : '',
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
      MobilePaymentRequest: charged ? 'Sent' : 'Not sent',
      AccRef: '',
      CompanyRef: tx.companyRef ?? '',
      TransRef: tx.transRef,
      TransactionFinalCurrency: tx.currency,
      TransactionFinalAmount: amount,
    });
  }

  async function cancelToken(request: XmlObject): Promise<Response> {
    const token = text(request, 'TransactionToken');
    if (!token) return result('950', 'Request missing mandatory fields - TransactionToken');
    const tx = await current(token);
    if (!tx) return result('999', 'Transaction not found');
    let state = tx.state;
    if (state === 'open') {
      const [cancelled] = await db
        .update(table)
        .set({ state: 'cancelled' })
        .where(and(eq(table.transToken, token), eq(table.state, 'open')))
        .returning();
      state = cancelled?.state ?? (await find(token))!.state;
    }
    if (state !== 'cancelled') return result('999', `Transaction can not be cancelled (${VERIFY_ANSWERS[state][1]})`);
    return result('000', 'Token been updated to status cancelled');
  }

  const operations: Record<string, (request: XmlObject) => Promise<Response>> = {
    createToken,
    GetMobilePaymentOptions: getMobilePaymentOptions,
    ChargeTokenMobile: chargeTokenMobile,
    verifyToken,
    cancelToken,
  };

  const app = new Hono();
  const clientAddress = options.clientAddress;
  if (clientAddress) {
    // Before the body is read, so a flood costs one counter each.
    app.post('*', async (c, next) => {
      try {
        await hitLimits(db, clock.now(), [{ limit: dpoSandboxRequests, subject: clientAddress(c) }]);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
        return c.text('Too Many Requests', 429, { 'Retry-After': String(error.extra.retryAfterSeconds ?? 60) });
      }
      await next();
    });
  }
  app.post(
    '*',
    bodyLimit({
      maxSize: DPO_SANDBOX_MAX_BODY_BYTES,
      onError: (c) => c.text('Payload Too Large', 413),
    }),
  );
  app.post('*', async (c) => {
    const body = await c.req.text();
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
    return operation(request);
  });
  app.all('*', (c) => c.text('Method Not Allowed', 405));

  // Pushes a payment nobody asks about (DPO pushes without being polled); one pass at a time.
  let sweeping = false;
  const sweep = () => {
    if (sweeping) return;
    sweeping = true;
    settleAll()
      .catch(() => undefined)
      .finally(() => (sweeping = false));
  };
  const timer =
    (options.settleIntervalMs ?? 1000) > 0 ? setInterval(sweep, options.settleIntervalMs ?? 1000) : undefined;
  timer?.unref();

  return {
    app,
    companyToken,
    async settle() {
      await settleAll();
      while (pushes.size > 0) await Promise.all([...pushes]);
    },
    async transaction(transToken) {
      const row = await current(transToken);
      return row && snapshot(row);
    },
    close() {
      if (timer) clearInterval(timer);
    },
  };
}
