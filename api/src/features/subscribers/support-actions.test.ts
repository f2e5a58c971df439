import {
  contracts,
  DownloadUrlResponse,
  GrantRedownloadResponse,
  ResetSubscriberPasswordResponse,
  SupportContext,
  SupportHistory,
} from '@filamu/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerProvenUser,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';
import { smsOutbox } from '../../db/schema.ts';
import { deliverSmsOutbox, REMOVED_SENT } from '../sms/outbox.ts';

const UNKNOWN_ID = '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a';
const GRANT_TEXT =
  'Filamu: support gave you 1 extra re-download, kept until you use it. In Downloads, tap Download again on the movie you lost.';

/**
 * Issue 30 §12 (decision 0214): a re-download granted or a password reset shows the admin the person's month, texts
 * a proven phone, and lands in the person's history with the admin's note; an unproven phone gets no text.
 */
describe.each(testDatabases)('support actions with context and delivery on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    adminId = (await t.request('GET', '/api/auth/profile', { token: adminToken })).json.id;
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const grant = (id: string, body?: unknown, token = adminToken) =>
    t.request('POST', `/api/admin/subscribers/${id}/redownloads`, { token, ...(body === undefined ? {} : { body }) });
  const reset = (id: string) => t.request('POST', `/api/admin/subscribers/${id}/reset-password`, { token: adminToken });
  const history = async (id: string) => {
    const res = await t.request('GET', `/api/admin/subscribers/${id}/history`, { token: adminToken });
    expect(res.status, res.text).toBe(200);
    return SupportHistory.parse(res.json).entries;
  };
  const context = async (id: string) => {
    const res = await t.request('GET', `/api/admin/subscribers/${id}/support-context`, { token: adminToken });
    expect(res.status, res.text).toBe(200);
    return SupportContext.parse(res.json);
  };
  const dispatch = async () => {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
  };
  /** What the phone received, read the way a client does: the admin's simulator inbox. */
  const inbox = async (phone: string) => {
    const res = await t.call(contracts.system.smsSimulatorMessages, { token: adminToken });
    expect(res.status).toBe(200);
    return (res.json.messages as { to: string; text: string }[]).filter((m) => m.to === `+${phone}`).map((m) => m.text);
  };
  const textsTo = (phone: string) => db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));

  it('a grant with a note texts a proven phone and shows in the history with the admin and the note', async () => {
    const { user } = await registerProvenUser(t);
    const res = await grant(user.id, { note: '  Lost her phone in a taxi on Monday.  ' });
    expect(res.status, res.text).toBe(200);
    const granted = GrantRedownloadResponse.parse(res.json);
    expect(granted.sms).toBe('queued');
    expect(granted.subscriber.extra_redownloads).toBe(1);

    await dispatch();
    expect(await inbox(user.phone)).toEqual([GRANT_TEXT]);

    const [entry, ...rest] = await history(user.id);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      action: 'redownload_granted',
      note: 'Lost her phone in a taxi on Monday.',
      sms: 'queued',
      admin: { email: ADMIN.email },
      at: t.clock.now().toISOString(),
    });
    expect(['sent', 'delivered']).toContain(entry!.smsStatus);
  });

  it('an unproven phone gets no text for a grant, and the history says why', async () => {
    const { user } = await registerUser(t);
    const granted = GrantRedownloadResponse.parse((await grant(user.id)).json);
    expect(granted.sms).toBe('phone_not_confirmed');
    expect(await textsTo(user.phone)).toEqual([]);
    expect(await history(user.id)).toMatchObject([
      { action: 'redownload_granted', note: null, sms: 'phone_not_confirmed', smsStatus: null },
    ]);
  });

  it('a reset texts the new password to a proven phone, the outbox forgets it, and the history never holds it', async () => {
    const { user, body } = await registerProvenUser(t);
    const res = await reset(user.id);
    expect(res.status, res.text).toBe(200);
    const done = ResetSubscriberPasswordResponse.parse(res.json);
    expect(done.sms).toBe('queued');
    expect(done.whatsappLink).toMatch(new RegExp(`^https://wa\\.me/${user.phone}\\?text=`));
    expect(decodeURIComponent(done.whatsappLink!.split('text=')[1]!)).toContain(done.newPassword);

    await dispatch();
    expect(await inbox(user.phone)).toEqual([
      `Filamu: support reset your password and signed you out. New password: ${done.newPassword} Sign in with your phone number. Keep it private.`,
    ]);
    const [row] = await textsTo(user.phone);
    expect(row!.body).toBe(REMOVED_SENT);
    const [kept] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(smsOutbox)
      .where(sql`${smsOutbox.body} like ${`%${done.newPassword}%`}`);
    expect(kept!.n).toBe(0);

    const entries = await history(user.id);
    expect(entries).toMatchObject([{ action: 'password_reset', note: null, sms: 'queued' }]);
    expect(JSON.stringify(entries)).not.toContain(done.newPassword);

    const signedIn = await t.request('POST', '/api/auth/login', {
      body: { identifier: body.phone, password: done.newPassword },
      ip: freshIp(),
    });
    expect(signedIn.status).toBe(200);
  });

  it('a reset of a person whose phone is not confirmed texts nothing: the admin alone has the password', async () => {
    const { user } = await registerUser(t);
    const done = ResetSubscriberPasswordResponse.parse((await reset(user.id)).json);
    expect(done).toMatchObject({ sms: 'phone_not_confirmed', whatsappLink: null });
    expect(await textsTo(user.phone)).toEqual([]);
    expect(await history(user.id)).toMatchObject([{ action: 'password_reset', sms: 'phone_not_confirmed' }]);
  });

  it('the context shows the month: downloads, re-downloads against the allowance, the data each movie cost', async () => {
    const planId = await createPlan(t, adminToken);
    const first = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 5_000 });
    const second = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 3_000 });
    const { user, token } = await registerProvenUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const download = async (movieId: string, redownload?: boolean) => {
      const res = await t.request('POST', '/api/users/movies/generate-download-url', {
        token,
        body: { movieId, ...(redownload && { redownload }) },
      });
      expect(res.status, res.text).toBe(200);
      const link = DownloadUrlResponse.parse(res.json);
      await fetchLink(t, link.downloadUrl);
      const done = await t.request('PUT', `/api/users/downloads/${link.downloadId}/complete`, { token, body: {} });
      expect(done.status, done.text).toBe(200);
    };
    expect(await context(user.id)).toMatchObject({
      downloadsThisMonth: 0,
      recentDownloads: [],
      phoneConfirmed: true,
      sms: 'queued',
    });

    await download(first.movie.id);
    t.clock.advance(60_000);
    await download(second.movie.id);
    t.clock.advance(60_000);
    await download(first.movie.id, true);
    await grant(user.id, { note: 'Phone reset' });

    const seen = await context(user.id);
    expect(seen).toMatchObject({
      downloadsThisMonth: 2,
      grantedUsedThisMonth: 0,
      redownloads: { perMonth: 3, usedThisMonth: 1, extra: 1, remaining: 3 },
      phone: user.phone,
    });
    expect(seen.recentDownloads.map((d) => [d.title, d.status, d.fetchedBytes, d.redownloadsThisMonth])).toEqual([
      [first.movie.title, 'completed', 10_000, 1],
      [second.movie.title, 'completed', 3_000, 0],
    ]);
  });

  it('refuses bad input with the error envelope and writes nothing', async () => {
    const { user } = await registerProvenUser(t);
    expectErrorEnvelope(
      await grant(user.id, { note: 'x'.repeat(281) }),
      400,
      'validation_error',
      'note: The note must be at most 280 characters.',
    );
    expectErrorEnvelope(await grant(user.id, { note: 42 }), 400, 'validation_error');
    // 280 characters after trimming is the most a note may hold.
    expect((await grant(user.id, { note: ` ${'y'.repeat(280)} ` })).status).toBe(200);
    expect((await history(user.id)).map((e) => e.note)).toEqual(['y'.repeat(280)]);

    expectErrorEnvelope(await grant(UNKNOWN_ID, { note: 'hi' }), 404, 'not_found');
    for (const path of ['history', 'support-context']) {
      expectErrorEnvelope(
        await t.request('GET', `/api/admin/subscribers/${UNKNOWN_ID}/${path}`, { token: adminToken }),
        404,
        'not_found',
      );
      expectErrorEnvelope(
        await t.request('GET', `/api/admin/subscribers/not-an-id/${path}`, { token: adminToken }),
        400,
        'validation_error',
      );
    }
    const plain = await registerUser(t);
    expectErrorEnvelope(
      await t.request('GET', `/api/admin/subscribers/${user.id}/history`, { token: plain.token }),
      403,
      'forbidden',
    );
    expectErrorEnvelope(await grant(adminId, { note: 'me' }), 403, 'forbidden');
    expect(await textsTo(plain.user.phone)).toEqual([]);
  });
});
