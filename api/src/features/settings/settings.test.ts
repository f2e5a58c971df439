import { DataPriceSetting, DEFAULT_DATA_PRICE_PER_GB_UGX } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';

describe.each(testDatabases)('the data price setting on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const put = (token: string | undefined, body: unknown) =>
    t.request('PUT', '/api/admin/settings/data-price', { token, body });

  it('answers the default to anyone, signed in or not, before the operator sets one', async () => {
    const res = await t.request('GET', '/api/settings/data-price');
    expect(res.status, res.text).toBe(200);
    expect(DataPriceSetting.parse(res.json)).toEqual({ dataPricePerGbUgx: DEFAULT_DATA_PRICE_PER_GB_UGX });
  });

  it('lets an admin set it, and everyone then reads the new price', async () => {
    const set = await put(adminToken, { dataPricePerGbUgx: 4500 });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toEqual({ dataPricePerGbUgx: 4500 });
    expect((await t.request('GET', '/api/settings/data-price')).json).toEqual({ dataPricePerGbUgx: 4500 });
  });

  it('keeps the price between UGX 100 and UGX 100,000, whole numbers only', async () => {
    await put(adminToken, { dataPricePerGbUgx: 7000 });
    for (const [value, message] of [
      [99, /at least UGX 100/],
      [100_001, /at most UGX 100,000/],
      [5000.5, /whole number/],
      ['5000', /price of 1 GB/],
    ] as const) {
      expectErrorEnvelope(await put(adminToken, { dataPricePerGbUgx: value }), 400, 'validation_error', message);
    }
    for (const edge of [100, 100_000]) {
      expect((await put(adminToken, { dataPricePerGbUgx: edge })).json).toEqual({ dataPricePerGbUgx: edge });
    }
    expect((await t.request('GET', '/api/settings/data-price')).json).toEqual({ dataPricePerGbUgx: 100_000 });
  });

  it('refuses the change to anyone but an admin', async () => {
    await put(adminToken, { dataPricePerGbUgx: 6000 });
    const { token } = await registerUser(t);
    expectErrorEnvelope(await put(undefined, { dataPricePerGbUgx: 100 }), 401, 'unauthenticated');
    expectErrorEnvelope(await put(token, { dataPricePerGbUgx: 100 }), 403, 'forbidden');
    expect((await t.request('GET', '/api/settings/data-price')).json).toEqual({ dataPricePerGbUgx: 6000 });
  });
});
