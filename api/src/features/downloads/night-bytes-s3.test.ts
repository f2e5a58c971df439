import { DownloadHistory, DownloadUrlResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TestClock, createTestApp, loginAdmin, registerUser } from '../../../test/harness.ts';
import { addMovie, createPlan, subscribe } from '../../../test/library.ts';
import { type RunningS3rver, startS3rver } from '../storage/s3rver.testing.ts';

/** An instant given as Kampala wall time (UTC+3), as an ISO string. */
const kampala = (local: string) => new Date(`${local}:00+03:00`).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * On S3 the server sees no byte: night bytes come from the phone's reported count, each report's new bytes split by the
 * share of the time since the last report (at most its last minute) that a night window was open (decision 0255).
 */
describe('night bytes on S3 storage', () => {
  let s3: RunningS3rver;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startS3rver();
    // 23:59:30 in Kampala, half a minute before the default window opens.
    t = await createTestApp('pglite', {
      clock: new TestClock(new Date(Date.parse(kampala('2026-11-29T23:59')) + 30 * SECOND).toISOString()),
      env: {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('counts the bytes reported since the last report by the share of that time inside the window', async () => {
    const adminToken = await loginAdmin(t);
    const planId = await createPlan(t, adminToken);
    const added = await addMovie(t, adminToken, { planIds: [planId], size: 50_000 });
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const granted = DownloadUrlResponse.parse(
      (await t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId: added.movie.id } }))
        .json,
    );
    const report = async (fetchedBytes: number) => {
      const res = await t.request('PUT', `/api/users/downloads/${granted.downloadId}/progress`, {
        token,
        body: { downloadedBytes: Math.min(fetchedBytes, 50_000), totalBytes: 50_000, fetchedBytes },
      });
      expect(res.status, res.text).toBe(200);
      const history = DownloadHistory.parse((await t.request('GET', '/api/users/me/downloads', { token })).json);
      const [entry] = history.downloads;
      return { fetchedBytes: entry!.fetchedBytes, nightBytes: entry!.nightBytes };
    };

    // 23:59:50: by day.
    t.clock.advance(20 * SECOND);
    expect(await report(7000)).toEqual({ fetchedBytes: 7000, nightBytes: 0 });
    // 00:00:10: half of the 20 seconds since the last report was night.
    t.clock.advance(20 * SECOND);
    expect(await report(9000)).toEqual({ fetchedBytes: 9000, nightBytes: 1000 });
    // 00:10:10 after a pause: the new bytes were fetched in the last minute, all of it night.
    t.clock.advance(10 * MINUTE);
    expect(await report(12_000)).toEqual({ fetchedBytes: 12_000, nightBytes: 4000 });
  });
});
