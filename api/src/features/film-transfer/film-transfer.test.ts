import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  AgentList,
  dataCostUgx,
  decryptFilmRange,
  DEFAULT_DATA_PRICE_PER_GB_UGX,
  DownloadUrlResponse,
  FILM_CHUNK_BYTES,
  FilmManifestClaims,
  FilmManifestResponse,
  fromBase64url,
  KINAYUGANDA_FIRST,
  LICENCE_ELSEWHERE,
  Licence,
  PlatformAnalytics,
  SigningKeyResponse,
  SUBSCRIPTION_REQUIRED,
} from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { compactVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads, movies, payments, subscriptionPlans as plans } from '../../db/schema.ts';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import {
  type AddedMovie,
  addMovie,
  createPlan,
  encryptionJobDeps,
  fetchLink,
  subscribe,
} from '../../../test/library.ts';
import { encryptMovieFiles } from '../transcode/encrypt-files.ts';
import { phoneKeys, unwrap } from '../licences/phone-keys.testing.ts';

/**
 * Films between phones (issue 19/22, decision 0243), as the phones see the server: a sender's phone gets the signed
 * manifest of the file it holds, and a receiver's phone turns a film that came from it into its own licence, under
 * the same rules as a download and without a byte of the film over the network.
 */

/** 2.5 MiB: three chunks, the last one short. */
const FILM_BYTES = Math.floor(2.5 * FILM_CHUNK_BYTES);

describe.each(testDatabases)('films between phones on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  let kina: AddedMovie;
  let english: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    kina = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: FILM_BYTES });
    english = await addMovie(t, adminToken, { category: 'English', planIds: [planId], size: 5_000 });
    const jobDeps = encryptionJobDeps(t);
    await encryptMovieFiles(jobDeps, kina.movie.id);
    await encryptMovieFiles(jobDeps, english.movie.id);
  });
  afterAll(() => t.close());

  async function subscriber() {
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id as string, planId);
    return registered;
  }

  /** The sender's download (with its licence, as the app asks): the file's bytes as the phone holds them. */
  async function download(token: string, movie: AddedMovie) {
    const phone = await phoneKeys();
    const res = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id, devicePublicKey: phone.spki },
    });
    expect(res.status, res.text).toBe(200);
    const link = DownloadUrlResponse.parse(res.json);
    const { bytes } = await fetchLink(t, link.downloadUrl);
    return { link, bytes, phone };
  }

  const manifestRequest = (token: string, movieId: string, query: { size: string; nonce: string }) =>
    t.request('GET', `/api/users/movies/${movieId}/manifest?size=${query.size}&nonce=${query.nonce}`, { token });

  async function manifestOf(token: string, movie: AddedMovie, link: DownloadUrlResponse) {
    const res = await manifestRequest(token, movie.movie.id, { size: link.size, nonce: link.fileNonce! });
    expect(res.status, res.text).toBe(200);
    return FilmManifestResponse.parse(res.json).manifest;
  }

  const receive = (token: string, manifest: string, spki: string) =>
    t.request('POST', '/api/users/licences/received', { token, body: { manifest, devicePublicKey: spki } });

  it('signs a manifest whose hashes are those of the very bytes the phone downloaded, checked with the public key', async () => {
    const sender = await subscriber();
    const { link, bytes } = await download(sender.token, kina);
    expect(link.fileNonce).not.toBeNull();
    const manifest = await manifestOf(sender.token, kina, link);

    const keyRes = await t.request('GET', '/api/licences/signing-key');
    expect(keyRes.status).toBe(200);
    const { jwk } = SigningKeyResponse.parse(keyRes.json);
    const { payload, protectedHeader } = await compactVerify(
      manifest,
      await importJWK({ ...jwk, alg: 'ES256' }, 'ES256'),
    );
    expect(protectedHeader.alg).toBe('ES256');
    const claims = FilmManifestClaims.parse(JSON.parse(new TextDecoder().decode(payload)));
    expect(claims).toMatchObject({
      mid: kina.movie.id,
      title: kina.movie.title,
      category: 'Kinayuganda',
      size: 'original',
      nonce: link.fileNonce,
      bytes: FILM_BYTES,
      chunk: FILM_CHUNK_BYTES,
    });
    const held = Buffer.concat(
      [0, 1, 2].map((i) =>
        createHash('sha256')
          .update(bytes.subarray(i * FILM_CHUNK_BYTES, (i + 1) * FILM_CHUNK_BYTES))
          .digest(),
      ),
    );
    expect(bytes.length).toBe(FILM_BYTES);
    expect(claims.hashes).toBe(held.toString('base64url'));
    // 320 chunks (a 320 MB Small) would be ≈ 19 KB of manifest; this one is a few hundred bytes.
    expect(manifest.length).toBeLessThan(1_000);
  });

  it('gives a manifest only to a person who downloaded the film, and says so while a file has none yet', async () => {
    const sender = await subscriber();
    const { link } = await download(sender.token, kina);
    const stranger = await subscriber();
    const notTheirs = await manifestRequest(stranger.token, kina.movie.id, {
      size: 'original',
      nonce: link.fileNonce!,
    });
    expectErrorEnvelope(notTheirs, 404, 'not_found');
    const unknownFile = await manifestRequest(sender.token, kina.movie.id, { size: 'small', nonce: link.fileNonce! });
    expectErrorEnvelope(unknownFile, 409, 'conflict');
    expect(unknownFile.json.error.message).toMatch(/still being prepared for sending/);
    const badNonce = await manifestRequest(sender.token, kina.movie.id, { size: 'original', nonce: 'x' });
    expectErrorEnvelope(badNonce, 400, 'validation_error');
  });

  it('turns a received film into the receiver’s own download and licence, which opens the bytes the sender sent', async () => {
    const sender = await subscriber();
    const { link, bytes } = await download(sender.token, kina);
    const manifest = await manifestOf(sender.token, kina, link);

    const receiver = await subscriber();
    const phone = await phoneKeys();
    const res = await receive(receiver.token, manifest, phone.spki);
    expect(res.status, res.text).toBe(200);
    const licence = Licence.parse(res.json);
    expect(licence).toMatchObject({ movieId: kina.movie.id, way: 'transfer' });

    // The receiver's phone opens the sender's bytes with its own licence: the film is the plain upload again.
    const key = await unwrap(phone.pair.privateKey, licence);
    const plain = await decryptFilmRange(key, fromBase64url(link.fileNonce!), 0, bytes);
    const [movie] = await t.deps.database.db.select().from(movies).where(eq(movies.id, kina.movie.id));
    const upload = readFileSync(t.deps.storage.localPath(movie!.s3Key)!);
    expect(Buffer.from(plain).equals(upload)).toBe(true);

    // It is the receiver's one download of the film, complete, and nothing of it crossed the network.
    const [row] = await t.deps.database.db
      .select()
      .from(downloads)
      .where(and(eq(downloads.userId, receiver.user.id as string), eq(downloads.movieId, kina.movie.id)));
    expect(row).toMatchObject({ status: 'completed', size: 'original', fetchedBytes: 0, deliveredBytes: 0 });
    expect(row!.confirmedAt).not.toBeNull();
    // Its history says it came from a phone; the sender's, that it was fetched.
    const history = async (token: string) =>
      (await t.request('GET', '/api/users/me/downloads', { token })).json.downloads as Record<string, unknown>[];
    expect(await history(receiver.token)).toEqual([
      expect.objectContaining({ movieId: kina.movie.id, received: true, fetchedBytes: 0 }),
    ]);
    expect(await history(sender.token)).toEqual([expect.objectContaining({ movieId: kina.movie.id, received: false })]);

    // The same phone asking again gets the same licence; another phone of the same person is the single-device rule.
    const again = await receive(receiver.token, manifest, phone.spki);
    expect(again.status, again.text).toBe(200);
    expect(Licence.parse(again.json).id).toBe(licence.id);
    const signedIn = await t.request('POST', '/api/auth/login', {
      body: {
        identifier: receiver.body.email,
        password: receiver.body.password,
        currentDeviceId: `second-${randomUUID()}`,
      },
      ip: freshIp(),
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const otherPhone = await phoneKeys();
    const elsewhere = await receive(signedIn.json.token as string, manifest, otherPhone.spki);
    expectErrorEnvelope(elsewhere, 409, 'licence_elsewhere');
    expect(elsewhere.json.error.message).toBe(LICENCE_ELSEWHERE);
  });

  it('counts an agent’s phone as a kiosk: the films people received from it, and who paid for a plan after', async () => {
    const { body, password } = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: body.email, password },
      ip: freshIp(),
    });
    expect(login.status, login.text).toBe(200);
    const agentToken = login.json.token as string;
    // The agent's phone holds the films (Kinayuganda first, as for everyone: decision 0017), English among them.
    const sentKina = await download(agentToken, kina);
    const sent = await download(agentToken, english);
    const manifest = await manifestOf(agentToken, english, sent.link);
    const claims = FilmManifestClaims.parse(JSON.parse(Buffer.from(manifest.split('.')[1]!, 'base64url').toString()));
    const agentId = claims.agent!;
    expect(agentId).toEqual(expect.any(String));

    const agentRow = async () => {
      const res = await t.request('GET', '/api/agents', { token: adminToken });
      expect(res.status, res.text).toBe(200);
      return AgentList.parse(res.json).agents.find((a) => a.id === agentId)!;
    };
    expect(await agentRow()).toMatchObject({ films_sent: 0, plans_after: 0 });
    const phoneToPhone = async () => {
      const res = await t.request('GET', '/api/admin/analytics', { token: adminToken });
      expect(res.status, res.text).toBe(200);
      return PlatformAnalytics.parse(res.json).phoneToPhone;
    };
    const before = await phoneToPhone();

    // A subscriber who has the Kinayuganda film receives the English one from the agent; one who does not is refused
    // and nothing is counted for the agent.
    const ready = await subscriber();
    const phone = await phoneKeys();
    await download(ready.token, kina);
    const locked = await subscriber();
    expectErrorEnvelope(await receive(locked.token, manifest, phone.spki), 403, 'download_locked');
    const licensed = await receive(ready.token, manifest, phone.spki);
    expect(licensed.status, licensed.text).toBe(200);
    expect(await agentRow()).toMatchObject({ films_sent: 1, plans_after: 0 });
    // The operator sees it among the films moved phone to phone, with the data it saved at the operator's price.
    const after = await phoneToPhone();
    expect(after).toMatchObject({
      films: before.films + 1,
      fromAgents: before.fromAgents + 1,
      savedBytes: before.savedBytes + claims.bytes,
    });
    expect(after.savedUgx).toBe(dataCostUgx(after.savedBytes, DEFAULT_DATA_PRICE_PER_GB_UGX));

    // The receiver then pays for a plan: the agent's film is counted as one that a plan followed.
    const [plan] = await t.deps.database.db.select().from(plans).where(eq(plans.id, planId));
    const now = t.clock.now();
    await t.deps.database.db.insert(payments).values({
      userId: ready.user.id as string,
      planId,
      planName: plan!.planName,
      amountUgx: 25_000,
      phone: '256772000001',
      status: 'completed',
      completedAt: new Date(now.getTime() + 60_000),
      expiresAt: now,
      nextCheckAt: now,
    });
    expect(await agentRow()).toMatchObject({ films_sent: 1, plans_after: 1 });

    // Someone with no plan opens the agent's Kinayuganda film: refused, it waits on their phone. The plan they then
    // buy is one the film brought: the agent's, and the operator's "plans after a received film".
    const kinaManifest = await manifestOf(agentToken, kina, sentKina.link);
    const newcomer = await registerUser(t);
    expectErrorEnvelope(await receive(newcomer.token, kinaManifest, phone.spki), 403, 'subscription_required');
    expectErrorEnvelope(await receive(newcomer.token, kinaManifest, phone.spki), 403, 'subscription_required');
    const waiting = await phoneToPhone();
    expect(await agentRow()).toMatchObject({ films_sent: 1, plans_after: 1 });
    const paid = async (userId: string, amountUgx: number, minutes: number) =>
      t.deps.database.db.insert(payments).values({
        userId,
        planId,
        planName: plan!.planName,
        amountUgx,
        phone: '256772000002',
        status: 'completed',
        completedAt: new Date(t.clock.now().getTime() + minutes * 60_000),
        expiresAt: now,
        nextCheckAt: now,
      });
    await paid(newcomer.user.id as string, 15_000, 2);
    expect(await agentRow()).toMatchObject({ films_sent: 1, plans_after: 2 });
    expect(await phoneToPhone()).toMatchObject({
      plansAfter: waiting.plansAfter + 1,
      plansAfterUgx: waiting.plansAfterUgx + 15_000,
    });
    // A renewal later is not one more plan the film brought.
    await paid(newcomer.user.id as string, 15_000, 3);
    expect(await phoneToPhone()).toMatchObject({ plansAfter: waiting.plansAfter + 1 });
  });

  it('holds the download rules: a plan first, Kinayuganda before English, and only Filamu’s own manifests', async () => {
    // The sender has every Kinayuganda film (its whole file fetched completes it), so English is theirs to send.
    const sender = await subscriber();
    const kinaManifest = await manifestOf(sender.token, kina, (await download(sender.token, kina)).link);
    const englishManifest = await manifestOf(sender.token, english, (await download(sender.token, english)).link);
    const phone = await phoneKeys();

    const noPlan = await registerUser(t);
    const refused = await receive(noPlan.token, kinaManifest, phone.spki);
    expectErrorEnvelope(refused, 403, 'subscription_required');
    expect(refused.json.error.message).toBe(SUBSCRIPTION_REQUIRED);

    const receiver = await subscriber();
    const locked = await receive(receiver.token, englishManifest, phone.spki);
    expectErrorEnvelope(locked, 403, 'download_locked');
    expect(locked.json.error.message).toBe(KINAYUGANDA_FIRST);
    // Receiving the Kinayuganda film completes what stood in the way: the English one is then unlocked.
    expect((await receive(receiver.token, kinaManifest, phone.spki)).status).toBe(200);
    const unlocked = await receive(receiver.token, englishManifest, phone.spki);
    expect(unlocked.status, unlocked.text).toBe(200);

    // One changed letter in the claims (another film's id, a longer file…) and the signature no longer holds.
    const [head, payload, signature] = kinaManifest.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = [
      head,
      Buffer.from(JSON.stringify({ ...claims, mid: english.movie.id })).toString('base64url'),
      signature,
    ];
    const tampered = await receive(receiver.token, forged.join('.'), phone.spki);
    expectErrorEnvelope(tampered, 400, 'bad_request');
    expect(tampered.json.error.message).toMatch(/not made by Filamu/);
    // A licence is signed by the same key but is no manifest.
    const licence = Licence.parse((await receive(receiver.token, kinaManifest, phone.spki)).json);
    const notAManifest = await receive(receiver.token, licence.token, phone.spki);
    expectErrorEnvelope(notAManifest, 400, 'bad_request');
  });
});
