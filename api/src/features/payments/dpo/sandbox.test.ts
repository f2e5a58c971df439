import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client.ts';
import { freshDatabase, testDatabases } from '../../../../test/harness.ts';
import { createDpoSandbox, type DpoSandbox } from './sandbox.ts';
import { listen, MovableClock, type Running } from '../../../lib/loopback.testing.ts';
import { parseApi3g, readStatus, text } from './xml.ts';

/** The sandbox spoken to in raw XML over HTTP, the way DPO would be: error codes and shapes from dpo-protocol. */

const TOKEN = 'C0FFEE00-1111-2222-3333-444444444444';
let sandbox: DpoSandbox;
let server: Running;
let url: string;
let database: Database;
const clock = new MovableClock();

async function post(body: string, target = url) {
  const res = await fetch(target, { method: 'POST', headers: { 'Content-Type': 'application/xml' }, body });
  const raw = await res.text();
  const root = parseApi3g(raw);
  return { status: res.status, contentType: res.headers.get('content-type'), raw, root, ...readStatus(root ?? {}) };
}

const envelope = (inner: string, token = TOKEN) =>
  `<?xml version="1.0" encoding="utf-8"?><API3G><CompanyToken>${token}</CompanyToken>${inner}</API3G>`;

const transaction = (fields = '<PaymentAmount>15000</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency>') =>
  `<Request>createToken</Request><Transaction>${fields}</Transaction>` +
  '<Services><Service><ServiceType>3854</ServiceType><ServiceDescription>Plan</ServiceDescription><ServiceDate>2026/11/22 12:00</ServiceDate></Service></Services>';

describe.each(testDatabases)('DPO sandbox protocol (%s)', (kind) => {
  beforeAll(async () => {
    database = await freshDatabase(kind);
    await database.prepare(async () => undefined);
    sandbox = createDpoSandbox({
      clock,
      database,
      companyToken: TOKEN,
      paymentDelayMs: 1000,
      ptlMinutes: 60,
      settleIntervalMs: 0,
    });
    const app = new Hono();
    app.route('/sandbox/dpo/API/v6', sandbox.app);
    server = await listen(app);
    url = `${server.url}/sandbox/dpo/API/v6/`;
  });
  afterAll(async () => {
    sandbox.close();
    await server.close();
    await database.close();
  });

  it('answers createToken with Result 000, TransToken and TransRef, as XML', async () => {
    const res = await post(envelope(transaction()));
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('application/xml');
    expect(res.raw).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<API3G><Result>000<\/Result>/);
    expect(res.code).toBe('000');
    expect(res.explanation).toBe('Transaction created');
    expect(text(res.root!, 'TransToken')).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-/);
    expect(text(res.root!, 'TransRef')).toMatch(/^R[0-9A-F]{9}$/);
  });

  it('answers on the mount path with and without the trailing slash', async () => {
    expect((await post(envelope(transaction()), url.slice(0, -1))).code).toBe('000');
  });

  it('answers the generic errors: 804 bad XML, 801 no token, 802 unknown token, 803 unknown request', async () => {
    expect(await post('this is not xml')).toMatchObject({ status: 200, code: '804', explanation: 'Error in XML' });
    expect((await post('<Other><CompanyToken>x</CompanyToken></Other>')).code).toBe('804');
    expect((await post('<API3G><Request>createToken</Request></API3G>')).code).toBe('801');
    expect((await post(envelope('<Request>createToken</Request>', 'WRONG'))).code).toBe('802');
    expect((await post(envelope('<Request>makeMoney</Request>'))).code).toBe('803');
    expect((await post(envelope(''))).code).toBe('803');
    // The documented spellings only.
    expect((await post(envelope(transaction().replace('createToken', 'CreateToken')))).code).toBe('803');
    // Too big to be a DPO request: refused before parsing (sandbox-guard.test.ts: without reading it all).
    expect((await post(envelope(transaction()).padEnd(70_000, ' '))).status).toBe(413);
  });

  it('checks createToken fields: 902 transaction level, 950 service level, 904 currency, 960 repeated tag', async () => {
    expect(await post(envelope(transaction('<PaymentCurrency>UGX</PaymentCurrency>')))).toMatchObject({
      code: '902',
      explanation: 'Request missing transaction level mandatory fields - PaymentAmount',
    });
    expect((await post(envelope(transaction('<PaymentAmount>15000</PaymentAmount>')))).code).toBe('902');
    expect(
      (await post(envelope(transaction('<PaymentAmount>1.234</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency>'))))
        .code,
    ).toBe('902');
    expect(
      (await post(envelope(transaction('<PaymentAmount>10</PaymentAmount><PaymentCurrency>XXX</PaymentCurrency>'))))
        .code,
    ).toBe('904');
    expect(
      (
        await post(
          envelope(
            transaction(
              '<PaymentAmount>10</PaymentAmount><PaymentAmount>20</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency>',
            ),
          ),
        )
      ).code,
    ).toBe('960');
    const noDescription = envelope(transaction()).replace('<ServiceDescription>Plan</ServiceDescription>', '');
    expect(await post(noDescription)).toMatchObject({
      code: '950',
      explanation: 'Request missing mandatory fields - ServiceDescription',
    });
    expect(await post(envelope(transaction()).replace('2026/11/22 12:00', '2026-11-22'))).toMatchObject({
      code: '950',
    });
  });

  it('applies PTL and PTLtype from the request, defaulting to hours', async () => {
    const start = clock.now().getTime();
    const hours = await post(
      envelope(transaction('<PaymentAmount>5</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency><PTL>2</PTL>')),
    );
    const minutes = await post(
      envelope(
        transaction(
          '<PaymentAmount>5</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency><PTL>2</PTL><PTLtype>minutes</PTLtype>',
        ),
      ),
    );
    const fallback = await post(envelope(transaction()));
    const expiry = async (res: { root: ReturnType<typeof parseApi3g> }) =>
      (await sandbox.transaction(text(res.root!, 'TransToken')!))!.expiresAt.getTime() - start;
    expect(await expiry(hours)).toBe(2 * 3_600_000);
    expect(await expiry(minutes)).toBe(2 * 60_000);
    expect(await expiry(fallback)).toBe(60 * 60_000);
  });

  it('refuses a second paid token for the same CompanyRef when CompanyRefUnique is 1 (940)', async () => {
    const fields =
      '<PaymentAmount>100</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency><CompanyRef>ref-940</CompanyRef><CompanyRefUnique>1</CompanyRefUnique>';
    const first = await post(envelope(transaction(fields)));
    const token = text(first.root!, 'TransToken')!;
    // An unpaid token with the same ref may exist twice.
    expect((await post(envelope(transaction(fields)))).code).toBe('000');
    const charge = await post(
      envelope(
        `<Request>ChargeTokenMobile</Request><TransactionToken>${token}</TransactionToken><PhoneNumber>256772000000</PhoneNumber><MNO>mtnmobilemoney</MNO><MNOcountry>uganda</MNOcountry>`,
      ),
    );
    expect(charge.code).toBe('130');
    expect(text(charge.root!, 'RedirectOption')).toBe('0');
    clock.advance(1000);
    expect((await post(envelope(transaction(fields)))).code).toBe('940');
    expect((await post(envelope(transaction(fields.replace('<CompanyRefUnique>1</CompanyRefUnique>', ''))))).code).toBe(
      '000',
    );
  });

  it('answers ChargeTokenMobile field errors with StatusCode 950–956', async () => {
    const created = await post(envelope(transaction()));
    const token = text(created.root!, 'TransToken')!;
    const charge = (fields: string) => post(envelope(`<Request>ChargeTokenMobile</Request>${fields}`));
    const all = {
      TransactionToken: token,
      PhoneNumber: '256772000005',
      MNO: 'MTNmobilemoney',
      MNOcountry: 'uganda',
    };
    const without = (name: keyof typeof all) =>
      Object.entries(all)
        .filter(([key]) => key !== name)
        .map(([key, value]) => `<${key}>${value}</${key}>`)
        .join('');
    const missingToken = await charge(without('TransactionToken'));
    expect(missingToken.code).toBe('950');
    expect(text(missingToken.root!, 'StatusCode')).toBe('950');
    expect((await charge(without('MNO'))).code).toBe('952');
    expect((await charge(without('MNOcountry'))).code).toBe('953');
    expect((await charge(without('PhoneNumber'))).code).toBe('954');
    expect((await charge(without('PhoneNumber') + '<PhoneNumber>0772000005</PhoneNumber>')).code).toBe('955');
    expect((await charge(without('MNOcountry') + '<MNOcountry>kenya</MNOcountry>')).code).toBe('956');
    expect((await charge(without('TransactionToken') + '<TransactionToken>nope</TransactionToken>')).code).toBe('951');
  });

  it('answers verifyToken, GetMobilePaymentOptions and cancelToken errors', async () => {
    expect((await post(envelope('<Request>verifyToken</Request>'))).code).toBe('950');
    expect((await post(envelope('<Request>verifyToken</Request><TransactionToken>nope</TransactionToken>'))).code).toBe(
      '902',
    );
    expect((await post(envelope('<Request>GetMobilePaymentOptions</Request>'))).code).toBe('950');
    expect(
      (await post(envelope('<Request>GetMobilePaymentOptions</Request><TransactionToken>x</TransactionToken>'))).code,
    ).toBe('904');
    expect((await post(envelope('<Request>cancelToken</Request>'))).code).toBe('950');
    expect((await post(envelope('<Request>cancelToken</Request><TransactionToken>x</TransactionToken>'))).code).toBe(
      '999',
    );
  });

  it('verifies by CompanyRef as well as by token, with the documented response fields', async () => {
    await post(
      envelope(
        transaction(
          '<PaymentAmount>7000</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency><CompanyRef>by-ref</CompanyRef>',
        ),
      ),
    );
    const res = await post(
      envelope('<Request>verifyToken</Request><CompanyRef>by-ref</CompanyRef><VerifyTransaction>0</VerifyTransaction>'),
    );
    expect(res.code).toBe('900');
    for (const field of [
      'TransactionAmount',
      'TransactionCurrency',
      'FraudAlert',
      'FraudExplnation',
      'MobilePaymentRequest',
    ]) {
      expect(res.raw, field).toContain(`<${field}>`);
    }
    expect(text(res.root!, 'TransactionAmount')).toBe('7000.00');
    expect(text(res.root!, 'MobilePaymentRequest')).toBe('Not sent');
  });

  it('answers GET with 405 and no XML processing', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(405);
  });
});
