import { contracts, type DeviceCheckAnswers, type RenditionAnswer } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCheckSends } from '../rate-limit/limits.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';

/**
 * The device check's results (decision 0253): anyone may send what their phone said, bounded and rate-limited per
 * address, and only an admin reads them back, newest first, with the share of phones that get the HEVC Small.
 */
const hardware: RenditionAnswer = {
  decoding: { supported: true, smooth: true, powerEfficient: true },
  videoCanPlay: 'probably',
  audioCanPlay: 'probably',
  played: 'played',
};
const noDecoder: RenditionAnswer = {
  decoding: { supported: false, smooth: false, powerEfficient: false },
  videoCanPlay: '',
  audioCanPlay: 'probably',
  played: 'failed',
};
const h264Only: DeviceCheckAnswers = { small: hardware, 'small-hevc': noDecoder, standard: hardware, hd: hardware };
const hevcToo: DeviceCheckAnswers = { ...h264Only, 'small-hevc': hardware };

/** A Tecno on an old Chrome names its model in the header; a reduced header says `K` and the hints say the rest. */
const TECNO_UA =
  'Mozilla/5.0 (Linux; Android 9; TECNO KC8 Build/PPR1.180610.011) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/89.0.4389.105 Mobile Safari/537.36';
const REDUCED_UA =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

describe.each(testDatabases)('device checks on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const send = (body: unknown, options: { ip?: string; token?: string; userAgent?: string } = {}) =>
    t.call(contracts.deviceChecks.sendDeviceCheck, {
      body,
      token: options.token,
      ip: options.ip ?? freshIp(),
      headers: { 'user-agent': options.userAgent ?? TECNO_UA },
    });
  /** As the admin, unless another token (or none: null) is given. */
  const list = (query = '', token: string | null = adminToken) =>
    t.request('GET', `/api/admin/device-checks${query}`, { token: token ?? undefined });

  it('keeps a check sent signed out, with the phone read from its User-Agent, and lists it for the admin', async () => {
    const sent = await send({ hints: null, answers: h264Only });
    expect(sent.status).toBe(201);
    expect(sent.json.message).toMatch(/Sent to Filamu/);

    const listed = await list();
    expect(listed.status).toBe(200);
    const check = listed.json.checks.find((c: { id: string }) => c.id === sent.json.id);
    expect(check).toMatchObject({
      model: 'TECNO KC8',
      androidVersion: '9',
      chromeVersion: '89',
      userAgent: TECNO_UA,
      hevcSmall: false,
      h264Small: true,
      signedIn: false,
      answers: h264Only,
    });
  });

  it('takes the model and Android version from the hints when Chrome reduces its User-Agent, and the sender when signed in', async () => {
    const { token } = await registerUser(t);
    const sent = await send(
      { hints: { platform: 'Android', model: 'itel A571W', platformVersion: '13.0.0' }, answers: hevcToo },
      { token, userAgent: REDUCED_UA },
    );
    expect(sent.status).toBe(201);
    const check = (await list()).json.checks.find((c: { id: string }) => c.id === sent.json.id);
    expect(check).toMatchObject({
      model: 'itel A571W',
      androidVersion: '13',
      chromeVersion: '124',
      hevcSmall: true,
      signedIn: true,
    });
  });

  it('does not count HEVC Small for a phone that decodes it only in software, or plays no Opus', async () => {
    const software = { ...hardware, decoding: { supported: true, smooth: true, powerEfficient: false } };
    const noOpus = { ...hardware, audioCanPlay: '' };
    const ids: string[] = [];
    for (const hevc of [software, noOpus]) {
      ids.push((await send({ hints: null, answers: { ...h264Only, 'small-hevc': hevc } })).json.id);
    }
    const checks = (await list()).json.checks.filter((c: { id: string }) => ids.includes(c.id));
    expect(checks.map((c: { hevcSmall: boolean }) => c.hevcSmall)).toEqual([false, false]);
  });

  it('refuses, in words, answers that are not the fixed shape or strings past their bounds', async () => {
    const missingHd = { small: hardware, 'small-hevc': hardware, standard: hardware };
    expectErrorEnvelope(await send({ hints: null, answers: missingHd }), 400, 'validation_error', /hd/);
    const oddAnswer = { ...h264Only, small: { ...hardware, videoCanPlay: 'yes' } };
    expectErrorEnvelope(await send({ hints: null, answers: oddAnswer }), 400, 'validation_error');
    const longModel = { platform: 'Android', model: 'x'.repeat(81), platformVersion: '13' };
    expectErrorEnvelope(await send({ hints: longModel, answers: h264Only }), 400, 'validation_error', /model/);
    expectErrorEnvelope(await send({ answers: h264Only }), 400, 'validation_error', /hints/);
  });

  it('keeps no more than the fixed shape: a field the client added is not stored', async () => {
    const sent = await send({
      hints: null,
      answers: { ...h264Only, small: { ...hardware, note: 'free text' } },
      blob: 'y'.repeat(100),
    });
    expect(sent.status).toBe(201);
    const check = (await list()).json.checks.find((c: { id: string }) => c.id === sent.json.id);
    expect(check.answers.small).toEqual(hardware);
  });

  it('lists only for an admin', async () => {
    expectErrorEnvelope(await list('', null), 401, 'unauthenticated');
    const { token } = await registerUser(t);
    expectErrorEnvelope(await list('', token), 403, 'forbidden');
  });

  it('pages newest first and counts every phone checked, and those that get HEVC Small, over all pages', async () => {
    const all = (await list('?pageSize=100')).json;
    const first = (await list('?page=1&pageSize=2')).json;
    const second = (await list('?page=2&pageSize=2')).json;
    expect(first.checks).toHaveLength(2);
    expect([...first.checks, ...second.checks].map((c: { id: string }) => c.id)).toEqual(
      all.checks.slice(0, 4).map((c: { id: string }) => c.id),
    );
    const times = all.checks.map((c: { createdAt: string }) => Date.parse(c.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.total).toBe(all.checks.length);
    expect(first.hevcSmall).toBe(all.checks.filter((c: { hevcSmall: boolean }) => c.hevcSmall).length);
    expect(first.hevcSmall).toBeGreaterThan(0);
    expectErrorEnvelope(await list('?pageSize=101'), 400, 'validation_error');
  });

  it('refuses an address past its hourly allowance with 429 and Retry-After, and another address goes on', async () => {
    const ip = freshIp();
    for (let i = 0; i < deviceCheckSends.max; i++) {
      expect((await send({ hints: null, answers: h264Only }, { ip })).status).toBe(201);
    }
    const refused = await send({ hints: null, answers: h264Only }, { ip });
    expectErrorEnvelope(refused, 429, 'rate_limited', /Too many phone checks sent from your network/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await send({ hints: null, answers: h264Only })).status).toBe(201);
  });
});
