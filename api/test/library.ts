import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AdminMovie, RENDITION_TARGETS, type RenditionKind } from '@filamu/shared';
import type { Executor } from '../src/db/client.ts';
import { movieRenditions, moviePlans, movies } from '../src/db/schema.ts';
import { renditionKey } from '../src/features/storage/storage.ts';
import type { TestApp } from './harness.ts';

/** Bytes that open like an MP4 (an `ftyp` box) followed by noise: enough for the server's video check. */
export function fakeMp4(size = 4096): Buffer {
  const bytes = randomBytes(size);
  Buffer.from('000000186674797069736f6d0000020069736f6d', 'hex').copy(bytes, 0);
  return bytes;
}

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082',
  'hex',
);

let planCounter = 0;
/** Creates an active plan as admin (expiring at the end of 2027 unless told otherwise); returns its id. */
export async function createPlan(t: TestApp, adminToken: string, overrides: Record<string, unknown> = {}) {
  planCounter += 1;
  const res = await t.request('POST', '/api/admin/subscription-plans', {
    token: adminToken,
    body: {
      plan_name: `Plan ${planCounter}`,
      price_ugx: 20_000,
      features: ['Unlimited downloads'],
      global_expiry_date: '2027-12-31T23:59',
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`create plan failed: ${res.status} ${res.text}`);
  return res.json.plan.id as string;
}

/**
 * Gives a plan one active movie, a row only (no file: it is never downloaded), so the plan can be sold: a plan
 * without movies is not (docs/decisions/0118). Returns the movie's id.
 */
export async function stockPlan(db: Executor, planId: string): Promise<string> {
  const [movie] = await db
    .insert(movies)
    .values({
      title: `Stock movie ${randomUUID().slice(0, 8)}`,
      category: 'Kinayuganda',
      s3Key: `movies/${randomUUID()}.mp4`,
      sizeBytes: 4096,
      contentType: 'video/mp4',
    })
    .returning({ id: movies.id });
  await db.insert(moviePlans).values({ movieId: movie!.id, planId });
  return movie!.id;
}

/** Puts the user on the plan (admin's manage-subscription). */
export async function subscribe(t: TestApp, adminToken: string, userId: string, planId: string) {
  const res = await t.request('PUT', `/api/admin/subscribers/${userId}/manage-subscription`, {
    token: adminToken,
    body: { action: 'activate_extend', subscription_plan_id: planId },
  });
  if (res.status !== 200) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
}

export interface AddedMovie {
  movie: AdminMovie;
  bytes: Buffer;
}

/** Stores a movie file (and a thumbnail) and saves the movie as admin, attached to `planIds` if given. */
export async function addMovie(
  t: TestApp,
  adminToken: string,
  options: {
    title?: string;
    category?: 'Kinayuganda' | 'English';
    rating?: 'all' | 'pg' | '13' | '18';
    vj?: string;
    /** Left out, the movie is saved in no plan (a plan's own form may add it later). */
    planIds?: string[];
    description?: string | null;
    size?: number;
    thumbnail?: boolean;
  },
): Promise<AddedMovie> {
  const bytes = fakeMp4(options.size ?? 4096);
  const movieS3Key = `movies/${randomUUID()}.mp4`;
  await t.deps.storage.put(movieS3Key, bytes, 'video/mp4');
  let thumbnailS3Key: string | null = null;
  if (options.thumbnail) {
    thumbnailS3Key = `thumbnails/${randomUUID()}.png`;
    await t.deps.storage.put(thumbnailS3Key, TINY_PNG, 'image/png');
  }
  const category = options.category ?? 'Kinayuganda';
  const res = await t.request('POST', '/api/admin/movies', {
    token: adminToken,
    body: {
      title: options.title ?? `${category} movie ${randomUUID().slice(0, 8)}`,
      description: options.description ?? null,
      vj: options.vj ?? (category === 'English' ? 'VJ Junior' : ''),
      category,
      rating: options.rating ?? 'all',
      movieS3Key,
      thumbnailS3Key,
      size: bytes.length,
      planIds: options.planIds,
    },
  });
  if (res.status !== 201) throw new Error(`add movie failed: ${res.status} ${res.text}`);
  return { movie: res.json.movie as AdminMovie, bytes };
}

/**
 * Fetches a download link the way the app does (whole, or one `Range`) and reads the body to its end, so the
 * server has delivered those bytes when this returns.
 */
export async function fetchLink(t: TestApp, downloadUrl: string, range?: string) {
  const url = new URL(downloadUrl);
  const response = await t.app.request(`${url.pathname}${url.search}`, range ? { headers: { range } } : {});
  const bytes = Buffer.from(await response.arrayBuffer());
  // The bytes are written once the response is over; completion waits for this process's writes anyway.
  return { status: response.status, bytes, text: bytes.toString('utf8') };
}

/**
 * Gives a movie a ready rendition of `kind` (what the transcoder leaves): a real object in storage and its row.
 * Returns the object's bytes (noise behind an `ftyp` box; any bytes serve a download).
 */
export async function addReadyRendition(
  t: TestApp,
  movieId: string,
  kind: RenditionKind,
  size: number,
): Promise<{ key: string; bytes: Buffer }> {
  const bytes = fakeMp4(size);
  // The key the transcoder stores a rendition under, so links, /files and cleanup see the real shape.
  const key = renditionKey(movieId, kind);
  await t.deps.storage.put(key, bytes, 'video/mp4');
  const height = RENDITION_TARGETS[kind].height;
  const now = t.clock.now();
  const row = { state: 'ready' as const, storageKey: key, sizeBytes: size, height, progress: 1, readyAt: now };
  await t.deps.database.db
    .insert(movieRenditions)
    .values({ movieId, kind, ...row, width: Math.round((height * 16) / 9), updatedAt: now })
    .onConflictDoUpdate({ target: [movieRenditions.movieId, movieRenditions.kind], set: { ...row, updatedAt: now } });
  return { key, bytes };
}

/** What the film-encryption job runs with, on the test app's database, storage and keys (a fresh work folder). */
export const encryptionJobDeps = (t: TestApp) => ({
  db: t.deps.database.db,
  storage: t.deps.storage,
  contentKeys: t.deps.contentKeys,
  logger: t.deps.logger,
  workDir: mkdtempSync(join(tmpdir(), 'filamu-encrypt-')),
  staleWorkMs: 600_000,
});
