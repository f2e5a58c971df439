import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AdminMovie, UserMovieList } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, registerUser, type TestApp, testDatabases } from '../../../test/harness.ts';
import { createPlan, fakeMp4 } from '../../../test/library.ts';
import { movies } from '../../db/schema.ts';
import { runStorageCleanup } from '../storage/cleanup.ts';
import { newObjectKey, posterKey } from '../storage/storage.ts';
import { makeClip, makePicture } from '../transcode/clips.testing.ts';
import { createPosterSweep, POSTER_SWEEP_INTERVAL_MS, type PosterSweep } from './sweep.ts';

const run = promisify(execFile);

/** What ffprobe reads from a stored poster: its codec and width. */
async function probe(bytes: Buffer, dir: string): Promise<{ codec: string; width: number }> {
  const path = join(dir, `${randomUUID()}.webp`);
  await writeFile(path, bytes);
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,width',
    '-of',
    'csv=p=0',
    path,
  ]);
  const [codec, width] = stdout.trim().split(',');
  return { codec: codec!, width: Number(width) };
}

/**
 * Posters in small WebP widths (decision 0143), made for real by ffmpeg: a movie saved with a picture, or with none
 * (a frame of its video), gets them from the sweep, the library lists them in `thumbnail_srcset`, anyone can load
 * them, and deleting the movie removes them.
 */
describe.each(testDatabases)('posters on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  let work: string;
  let picture: Buffer;
  let clip: Buffer;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    work = await mkdtemp(join(tmpdir(), 'filamu-posters-test-'));
    // A 1280×720 picture as an admin would upload, and a 3-second clip with no thumbnail at all.
    makePicture(work, 'thumb.png', { width: 1280, height: 720 });
    makeClip(work, 'clip.mp4', { width: 640, height: 360, seconds: 3, audio: false, noise: false });
    picture = await readFile(join(work, 'thumb.png'));
    clip = await readFile(join(work, 'clip.mp4'));
  });
  afterAll(async () => {
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function saveMovie(file: Buffer, thumbnail: Buffer | null): Promise<AdminMovie> {
    const movieS3Key = newObjectKey('movies', 'video/mp4')!;
    await t.deps.storage.put(movieS3Key, file, 'video/mp4');
    const thumbnailS3Key = thumbnail ? newObjectKey('thumbnails', 'image/png')! : null;
    if (thumbnailS3Key) await t.deps.storage.put(thumbnailS3Key, thumbnail!, 'image/png');
    const res = await t.request('POST', '/api/admin/movies', {
      token: adminToken,
      body: {
        title: `Poster ${randomUUID().slice(0, 6)}`,
        category: 'English',
        rating: 'all',
        vj: 'VJ Junior',
        movieS3Key,
        thumbnailS3Key,
        planIds: [planId],
      },
    });
    expect(res.status, res.text).toBe(201);
    return AdminMovie.parse(res.json.movie);
  }

  // One sweep for the file, as a server has: it remembers which movies failed and when to try them again.
  let poster: PosterSweep;
  const sweep = () => {
    poster ??= createPosterSweep(t.deps);
    t.clock.advance(POSTER_SWEEP_INTERVAL_MS);
    return poster.run();
  };

  /** The poster objects the sweep recorded for a movie. */
  async function posterKeysOf(id: string): Promise<string[]> {
    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, id));
    return (row?.posterVariants ?? []).map((v) => v.key);
  }

  async function libraryMovie(id: string) {
    const { token } = await registerUser(t);
    const list = UserMovieList.parse((await t.request('GET', '/api/users/movies', { token })).json);
    return list.movies.find((m) => m.id === id)!;
  }

  it('makes 160, 320 and 480 px WebP posters of a saved thumbnail after the save, and lists them in the srcset', async () => {
    const saved = await saveMovie(fakeMp4(), picture);
    // The save never waits for ffmpeg: no posters yet.
    expect(saved.thumbnail_srcset).toBeNull();

    expect(await sweep()).toEqual({ made: 1, failed: 0 });

    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, saved.id));
    // Keyed by the thumbnail too, so a replaced poster's variants never reuse these (immutable) keys.
    expect(row!.posterVariants).toEqual(
      [160, 320, 480].map((width) => ({ width, key: posterKey(saved.id, width, row!.thumbnailKey) })),
    );
    expect(row!.posterVariants![0]!.key).toMatch(new RegExp(`^posters/${saved.id}/160-[0-9a-f]{8}\\.webp$`));
    for (const { width, key } of row!.posterVariants!) {
      const bytes = await readFile(t.deps.storage.localPath(key)!);
      expect(await probe(bytes, work)).toEqual({ codec: 'webp', width });
      // A card's poster is a few KB, against the 1280 px picture's.
      expect(bytes.length).toBeLessThan(picture.length / 4);
    }

    const listed = await libraryMovie(saved.id);
    const entries = listed.thumbnail_srcset!.split(', ');
    expect(entries).toHaveLength(3);
    for (const [i, width] of [160, 320, 480].entries()) {
      expect(entries[i]).toMatch(
        new RegExp(`^https?://[^ ]+/files/posters/${saved.id}/${width}-[0-9a-f]{8}\\.webp ${width}w$`),
      );
    }
    // The admin's picture stays the fallback, and the posters load without a signed link, like thumbnails.
    expect(listed.thumbnail_url).toMatch(/\/files\/thumbnails\/[^/]+\.png$/);
    const loaded = await t.request('GET', new URL(entries[0]!.split(' ')[0]!).pathname);
    expect(loaded.status).toBe(200);
    expect(loaded.headers.get('content-type')).toBe('image/webp');

    // Detail (admin view) says the same.
    const admin = await t.request('GET', '/api/admin/movies', { token: adminToken });
    const adminMovie = (admin.json.movies as AdminMovie[]).find((m) => m.id === saved.id)!;
    expect(adminMovie.thumbnail_srcset).toBe(listed.thumbnail_srcset);

    // Done once: the next pass has nothing to make.
    expect(await sweep()).toEqual({ made: 0, failed: 0 });
  });

  it('makes new variants under new keys when an edit replaces the poster, and removes the old ones', async () => {
    const saved = await saveMovie(fakeMp4(), picture);
    expect(await sweep()).toEqual({ made: 1, failed: 0 });
    const before = await libraryMovie(saved.id);
    const [old] = await t.deps.database.db.select().from(movies).where(eq(movies.id, saved.id));

    const thumbnailS3Key = newObjectKey('thumbnails', 'image/png')!;
    await t.deps.storage.put(thumbnailS3Key, picture, 'image/png');
    const edit = await t.request('PATCH', `/api/admin/movies/${saved.id}`, {
      token: adminToken,
      body: { thumbnailS3Key },
    });
    expect(edit.status, edit.text).toBe(200);
    // Until the sweep runs, cards use the new picture itself, never the old variants.
    const waiting = await libraryMovie(saved.id);
    expect(waiting.thumbnail_srcset).toBeNull();
    expect(waiting.thumbnail_url).toContain(thumbnailS3Key);
    for (const { key } of old!.posterVariants!) expect(await t.deps.storage.head(key)).toBeNull();

    expect(await sweep()).toEqual({ made: 1, failed: 0 });
    const after = await libraryMovie(saved.id);
    expect(after.thumbnail_srcset).not.toBeNull();
    expect(after.thumbnail_srcset).not.toBe(before.thumbnail_srcset);
    for (const width of [160, 320, 480]) {
      expect(after.thumbnail_srcset).toContain(`/files/${posterKey(saved.id, width, thumbnailS3Key)} ${width}w`);
    }
  });

  it('takes a frame of the video as the poster when the admin gave no thumbnail', async () => {
    const saved = await saveMovie(clip, null);
    expect(saved.thumbnail_url).toBeNull();
    expect(await sweep()).toEqual({ made: 1, failed: 0 });

    const listed = await libraryMovie(saved.id);
    expect(listed.thumbnail_srcset).toMatch(new RegExp(`/files/posters/${saved.id}/160\\.webp 160w, `));
    // The widest poster stands in as the picture too.
    expect(listed.thumbnail_url).toMatch(new RegExp(`/files/posters/${saved.id}/480\\.webp$`));
    const bytes = await readFile(t.deps.storage.localPath(`posters/${saved.id}/320.webp`)!);
    expect(await probe(bytes, work)).toEqual({ codec: 'webp', width: 320 });
  });

  it('removes a movie’s posters with the movie', async () => {
    const saved = await saveMovie(fakeMp4(), picture);
    await sweep();
    const keys = await posterKeysOf(saved.id);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(await t.deps.storage.head(key)).not.toBeNull();

    const deleted = await t.request('DELETE', `/api/admin/movies/${saved.id}`, { token: adminToken });
    expect(deleted.status).toBe(200);
    for (const key of keys) expect(await t.deps.storage.head(key)).toBeNull();
  });

  it('tries a broken picture again later instead of every pass, and makes the others meanwhile', async () => {
    const broken = await saveMovie(fakeMp4(), Buffer.concat([picture.subarray(0, 64), Buffer.alloc(256)]));
    expect(await sweep()).toEqual({ made: 0, failed: 1 });
    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, broken.id));
    expect(row!.posterVariants).toBeNull();
    const good = await saveMovie(fakeMp4(), picture);
    expect(await sweep()).toEqual({ made: 1, failed: 0 });
    expect((await libraryMovie(good.id)).thumbnail_srcset).not.toBeNull();
    expect((await libraryMovie(broken.id)).thumbnail_srcset).toBeNull();
    // Clean up for the next test file's sake: the broken one is not the library's concern.
    await t.request('DELETE', `/api/admin/movies/${broken.id}`, { token: adminToken });
  });

  it('storage cleanup removes posters of no live movie, and keeps a live movie’s (recorded or not yet)', async () => {
    const live = await saveMovie(fakeMp4(), picture);
    const gone = await saveMovie(fakeMp4(), picture);
    await sweep();
    // A deleted movie whose poster objects a failed delete left behind, and a live one the sweep has not recorded yet.
    await t.deps.database.db.update(movies).set({ deletedAt: t.clock.now() }).where(eq(movies.id, gone.id));
    const stray = posterKey(randomUUID(), 160);
    const liveKeys = await posterKeysOf(live.id);
    await t.deps.storage.put(stray, await readFile(t.deps.storage.localPath(liveKeys[0]!)!), 'image/webp');
    const { orphanAgeMs, intervalMs } = t.deps.config.storage.cleanup;
    t.clock.advance(intervalMs);
    const old = new Date(t.clock.now().getTime() - orphanAgeMs - 60_000);
    const keys = [...liveKeys, ...(await posterKeysOf(gone.id))];
    for (const key of [...keys, stray]) await utimes(t.deps.storage.localPath(key)!, old, old);

    const report = await runStorageCleanup(t.deps);
    expect(report!.orphanObjects.count).toBe(4);
    for (const key of keys) {
      expect(await t.deps.storage.head(key), key).toEqual(key.includes(live.id) ? expect.anything() : null);
    }
    expect(await t.deps.storage.head(stray)).toBeNull();
  });
});
