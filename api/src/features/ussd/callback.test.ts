import { contracts, USSD_SCREEN_CHARACTERS } from '@filamu/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  readResponse,
  testDatabases,
} from '../../../test/harness.ts';
import { MENU_SCREENS } from './menu.ts';
import { fitsScreen, gsmText } from './protocol.ts';
import { UNLOCK_SCREENS } from './unlock.ts';

/**
 * The callback Africa's Talking calls (decision 0249): only with the secret (and, when listed, from the gateway's
 * addresses), form-encoded, answered in text; bad input gets the error envelope, never a 5xx. The simulator and its
 * dial run only where configuration says so: never in production by accident.
 */
const SECRET = 'a-ussd-callback-secret-for-tests';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const CALL = { sessionId: 'ATUid_1', serviceCode: '*384*3456#', phoneNumber: '+256772000001', networkCode: '64110' };

describe('USSD screens', () => {
  it('every screen the service shows is GSM-7 and fits one screen', () => {
    const screens = [
      ...Object.values(MENU_SCREENS),
      ...Object.values(UNLOCK_SCREENS).map((screen) =>
        typeof screen === 'string' ? screen : (screen as (...a: unknown[]) => string)('in 59 minutes', '0000'),
      ),
      UNLOCK_SCREENS.unknownFilm(9_999_999),
      UNLOCK_SCREENS.tooMany('in 24 hours'),
    ];
    for (const screen of screens) expect(fitsScreen(screen), screen).toBe(true);
  });

  it('writes a title as a handset shows it, and never past one screen', () => {
    // é is GSM-7; ŋ and the film clapper are not, and ô has a plain form.
    expect(gsmText('Ŋŋaali’s “Café” — Part 2 🎬 Côte')).toBe('??aali\'s "Café" - Part 2 ? Cote');
    expect(gsmText('Ebyafaayo', 5)).toBe('Ebyaf');
    expect(gsmText('x'.repeat(10_000)).length).toBe(USSD_SCREEN_CHARACTERS);
    expect(fitsScreen(gsmText('🎬'.repeat(500)))).toBe(true);
  });
});

describe.each(testDatabases)('the USSD callback on %s', (kind) => {
  describe('with a real gateway configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { env: { USSD_CALLBACK_SECRET: SECRET, USSD_ALLOWED_IPS: '196.201.214.1' } });
    });
    afterAll(() => t.close());

    const post = (query: string, body: string, headers: Record<string, string> = {}, ip = '196.201.214.1') =>
      t.request('POST', `/api/ussd/callback${query}`, {
        rawBody: body,
        ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });

    it('answers the gateway in text, with the secret, from its address', async () => {
      const res = await post(`?secret=${SECRET}`, form({ ...CALL, text: '' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.text).toBe(`CON ${MENU_SCREENS.welcome}`);
      expect((await post(`?secret=${SECRET}`, form({ ...CALL, text: '1' }))).text).toBe(`CON ${MENU_SCREENS.askCode}`);
    });

    it('refuses anyone else, with the envelope', async () => {
      expectErrorEnvelope(await post('', form({ ...CALL, text: '' })), 403, 'forbidden');
      expectErrorEnvelope(await post('?secret=wrong', form({ ...CALL, text: '' })), 403, 'forbidden');
      expectErrorEnvelope(
        await post(`?secret=${SECRET}`, form({ ...CALL, text: '' }), {}, '203.0.113.9'),
        403,
        'forbidden',
      );
    });

    it('refuses what is not a USSD callback, with the envelope and never a 5xx', async () => {
      const ok = `?secret=${SECRET}`;
      expectErrorEnvelope(
        await post(ok, JSON.stringify(CALL), { 'content-type': 'application/json' }),
        415,
        'unsupported_media_type',
      );
      expectErrorEnvelope(await post(ok, form({ text: '' })), 400, 'validation_error');
      expectErrorEnvelope(await post(ok, form({ ...CALL, text: 'x'.repeat(301) })), 400, 'validation_error');
      expectErrorEnvelope(await post(ok, form({ ...CALL, text: 'a\u0000b' })), 400, 'validation_error');
      expectErrorEnvelope(await post(ok, form({ ...CALL, text: 'x'.repeat(5000) })), 413, 'payload_too_large');
      expect((await t.request('GET', `/api/ussd/callback${ok}`)).status).toBe(404);
    });

    it('answers any form the gateway could send without a 5xx: a screen, or the envelope', async () => {
      const field = fc.oneof(
        fc.string({ maxLength: 120 }),
        fc.stringMatching(/^[0-9*#]{0,60}$/),
        fc.constantFrom('', '1', '1*', '1**', '*', '1*1234*567*8', '+256772000001', '0772000001', '%00', '\ud800'),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.record(
            { sessionId: field, serviceCode: field, phoneNumber: field, networkCode: field, text: field },
            { requiredKeys: [] },
          ),
          async (fields) => {
            const res = await post(`?secret=${SECRET}`, form(fields as Record<string, string>));
            expect(res.status).toBeLessThan(500);
            if (res.status === 200) {
              expect(res.text).toMatch(/^(CON|END) /);
              expect(fitsScreen(res.text.slice(4))).toBe(true);
            } else expectErrorEnvelope(res, res.status, res.json.error.code);
          },
        ),
        { numRuns: 60, seed: 20260249 },
      );
    });

    it('has no simulator: the dial is not found', async () => {
      expect(t.deps.ussd.simulator).toBeNull();
      const res = await t.call(contracts.unlock.ussdSimulatorDial, { body: { phoneNumber: '0772000001', inputs: [] } });
      expectErrorEnvelope(res, 404, 'not_found');
    });
  });

  describe('in production with no gateway', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, {
        env: { NODE_ENV: 'production', ALLOW_PAYMENT_SANDBOX: 'true', ALLOW_SMS_SIMULATOR: 'true' },
      });
    });
    afterAll(() => t.close());

    it('runs no simulator and takes no callback', async () => {
      expect(t.deps.config.ussd).toMatchObject({ callbackSecret: null, simulator: false });
      expect(t.deps.ussd).toEqual({ callbackSecret: null, simulator: null });
      const dial = await t.call(contracts.unlock.ussdSimulatorDial, {
        body: { phoneNumber: '0772000001', inputs: [] },
      });
      expectErrorEnvelope(dial, 404, 'not_found');
      const callback = readResponse(
        await t.app.request('/api/ussd/callback?secret=anything', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ ...CALL, text: '' }),
        }),
      );
      expectErrorEnvelope(await callback, 404, 'not_found');
    });
  });

  it('runs the simulator in production only when asked in so many words', async () => {
    const t = await createTestApp(kind, {
      env: {
        NODE_ENV: 'production',
        ALLOW_PAYMENT_SANDBOX: 'true',
        ALLOW_SMS_SIMULATOR: 'true',
        ALLOW_USSD_SIMULATOR: 'true',
      },
    });
    try {
      const res = await t.call(contracts.unlock.ussdSimulatorDial, { body: { phoneNumber: '0772000001', inputs: [] } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.screens).toEqual([{ input: null, kind: 'CON', text: MENU_SCREENS.welcome }]);
      // Its secret is the process's own: a guess is refused.
      expectErrorEnvelope(
        await t.request('POST', '/api/ussd/callback?secret=guess', {
          rawBody: form({ ...CALL, text: '' }),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        403,
        'forbidden',
      );
    } finally {
      await t.close();
    }
  });
});
