import { randomUUID } from 'node:crypto';
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDITION_KINDS } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movieRenditions, movies } from '../../src/db/schema.ts';
import { masterKeyFrom, sealedContentKeys } from '../../src/features/content-keys/content-keys.ts';
import { plainCopyFrom } from '../../src/features/content-keys/film-files.testing.ts';
import { makeClip, probeFile } from '../../src/features/transcode/clips.testing.ts';
import { type Cluster, createCluster, loginAdmin, pollUntil, processTests, Replica } from './server-process.ts';

/**
 * Renditions across real server processes on one Postgres, on the pg-boss queue (decision 0127): two processes make
 * each rendition once, and a process killed mid-encode leaves no half file — its rendition stops getting progress, a
 * live process takes the row back and fails the pg-boss job, which runs again after the back-off.
 */
const CONTENT_MASTER_KEY = 'process-tests-content-master-key-0123456789';

const LONG_CLIP_SECONDS = 30;

describe.skipIf(!processTests)('renditions across server processes', { timeout: 420_000 }, () => {
  let cluster: Cluster;
  const clips = mkdtempSync(join(tmpdir(), 'filamu-proc-clips-'));
  let clip: string;
  let longClip: string;
  // ffmpeg on (the cluster turns it off), one encode per process, and the production expiry floor (15 min): a killed
  // process's job must run again long before pg-boss would expire it, through the lapsed-progress recovery.
  const env = {
    FFMPEG_PATH: 'ffmpeg',
    TRANSCODE_CONCURRENCY: '1',
    TRANSCODE_EXPIRY_MIN_SECONDS: '900',
    TRANSCODE_RETRY_DELAY_SECONDS: '1',
    // A dead process's half-written encrypted copy is swept within seconds here (ten minutes by default).
    TRANSCODE_STALE_WORK_SECONDS: '5',
    // Configured (not generated), so the test can open the title keys the replicas make and read a stored film.
    CONTENT_MASTER_KEY: CONTENT_MASTER_KEY,
  };

  beforeAll(async () => {
    clip = makeClip(clips, 'hd.mp4', { width: 1280, height: 720, seconds: 5 });
    // Long enough that an idle machine is still encoding it when the test looks (a 5 s clip is done in a second), short
    // enough that the four encodes after the restart (the HEVC Small's x265 the slowest), one at a time, fit well
    // within the wait below.
    longClip = makeClip(clips, 'long.mp4', { width: 1280, height: 720, seconds: LONG_CLIP_SECONDS });
    cluster = await createCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    rmSync(clips, { recursive: true, force: true });
  });

  async function saveClip(replica: Replica, token: string, source = clip): Promise<string> {
    const key = `movies/${randomUUID()}.mp4`;
    mkdirSync(join(cluster.dataDir, 'objects', 'movies'), { recursive: true });
    copyFileSync(source, join(cluster.dataDir, 'objects', key));
    const res = await replica.request('POST', '/api/admin/movies', {
      token,
      body: {
        title: `Clip ${randomUUID().slice(0, 6)}`,
        category: 'English',
        rating: 'all',
        vj: 'VJ Test',
        movieS3Key: key,
      },
    });
    if (res.status !== 201) throw new Error(`save failed: ${res.status} ${res.text}`);
    return res.json.movie.id as string;
  }

  const originalOf = async (movieId: string) => {
    const [movie] = await cluster.database.db
      .select({ key: movies.originalFileKey })
      .from(movies)
      .where(eq(movies.id, movieId));
    return movie?.key ?? null;
  };

  const rowsOf = (movieId: string) =>
    cluster.database.db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movieId));

  async function allReady(movieId: string) {
    await pollUntil(
      async () => (await rowsOf(movieId)).every((r) => r.state === 'ready'),
      240_000,
      () => `renditions never became ready:\n${cluster.replicas.map((r) => r.log()).join('\n---\n')}`,
    );
  }

  /** A stored rendition read the way a phone with its licence reads it (decision 0235: films are stored encrypted). */
  async function plainRendition(movieId: string, row: { storageKey: string | null; fileNonce: string | null }) {
    const keys = sealedContentKeys(cluster.database.db, masterKeyFrom(CONTENT_MASTER_KEY));
    const from = createReadStream(join(cluster.dataDir, 'objects', row.storageKey!));
    return plainCopyFrom(from, await keys.keyOf(movieId), row.fileNonce!);
  }

  const started = (replica: Replica, movieId: string) =>
    replica.output.filter((line) => line.includes('transcode: started') && line.includes(movieId)).length;

  /** Files under the objects folder that are not finished objects (temp copies) and encoder outputs. */
  function leftovers(): string[] {
    const uploads = join(cluster.dataDir, 'objects', '.uploads');
    const work = join(cluster.dataDir, 'transcode');
    const list = (dir: string) => {
      try {
        return readdirSync(dir).map((name) => join(dir, name));
      } catch {
        return [];
      }
    };
    return [...list(uploads), ...list(work)];
  }

  it('two processes on one Postgres: each rendition is encoded once', async () => {
    const a = await Replica.start(cluster, env);
    const b = await Replica.start(cluster, env);
    const token = await loginAdmin(a);
    const movieId = await saveClip(a, token);
    await allReady(movieId);
    const rows = await rowsOf(movieId);
    const transcodeLines = [a, b].flatMap((r) => r.output.filter((line) => line.includes('transcode')));
    expect(
      rows.map((r) => r.attempts),
      transcodeLines.join('\n'),
    ).toEqual(RENDITION_KINDS.map(() => 1));
    // One encode per rendition (the two Smalls, Standard, HD), whichever process took which.
    expect(started(a, movieId) + started(b, movieId)).toBe(RENDITION_KINDS.length);
    for (const row of rows) {
      const path = join(cluster.dataDir, 'objects', row.storageKey!);
      expect(statSync(path).size).toBe(row.sizeBytes);
      expect(probeFile(await plainRendition(movieId, row)).height).toBe(row.height);
    }
    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
  });

  // Killed in the HEVC Small (x265, the second encode: decision 0251), so the restart finds one rendition ready, one
  // lapsed and two queued. What happens on a kill does not depend on the encoder, so one case covers both Smalls (two
  // cost another two minutes of the test line).
  it.each(['small-hevc'] as const)(
    'kill -9 mid-encode of %s, then a restart: one complete rendition each, no temp files left',
    async (victim) => {
      let server = await Replica.start(cluster, env);
      const token = await loginAdmin(server);
      const movieId = await saveClip(server, token, longClip);
      await pollUntil(
        async () => (await rowsOf(movieId)).some((r) => r.kind === victim && r.state === 'encoding' && r.progress > 0),
        120_000,
        () => `no ${victim} encode under way:\n${server.log()}`,
      );
      const killed = (await rowsOf(movieId)).find((r) => r.kind === victim)!;
      expect(await server.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      server = await Replica.start(cluster, env);
      await allReady(movieId);
      const rows = await rowsOf(movieId);
      // The interrupted one ran again under a new attempt (its progress lapsed; the job did not wait for its 15-minute
      // expiry); no row is half made.
      expect(rows.find((r) => r.kind === killed.kind)!.attempts).toBe(killed.attempts + 1);
      // The original's encrypted copy too, though the dead process may have been making it: its job, silent since the
      // kill, is failed and run again well before its hour's expiry (decision 0238).
      await pollUntil(
        async () => (await originalOf(movieId)) !== null,
        120_000,
        () => `the original was never encrypted:\n${server.log()}`,
      );
      const original = (await originalOf(movieId))!;
      const stored = readdirSync(join(cluster.dataDir, 'objects', 'renditions', movieId)).sort();
      const named = [...rows.map((r) => r.storageKey!), original].map((key) => key.split('/').pop());
      expect(stored).toEqual(named.sort());
      // `<size>-<nonce>.filamu`, where a size may have a hyphen of its own (`small-hevc`).
      const sizes = stored.map((name) => name.replace(/-[0-9a-f]{16}\.filamu$/, ''));
      expect(sizes.sort()).toEqual([...RENDITION_KINDS, 'original'].sort());
      expect(stored.every((name) => name.endsWith('.filamu'))).toBe(true);
      for (const row of rows) {
        const path = join(cluster.dataDir, 'objects', row.storageKey!);
        expect(statSync(path).size).toBe(row.sizeBytes);
        expect(probeFile(await plainRendition(movieId, row)).durationSeconds).toBeCloseTo(LONG_CLIP_SECONDS, 0);
      }
      // The dead process's encoder output is swept once its attempt no longer holds the row, its half-encrypted copy of
      // the original once it has gone untouched for TRANSCODE_STALE_WORK_SECONDS.
      await pollUntil(
        async () => leftovers().length === 0,
        30_000,
        () => `left behind: ${leftovers().join(', ')}`,
      );
      await server.kill('SIGTERM');
    },
  );
});
