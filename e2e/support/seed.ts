import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BrowserContext } from 'playwright-core';
import { generateDemoThumbnail, hexToRgb } from '../../api/demo/media/index.ts';
import { apiCall, signInAdmin } from './api.ts';
import { baseURL, newUser } from './browser.ts';

/**
 * Test data through the API, as the admin: plans, movies (uploaded like the admin screen does), users and
 * their subscriptions and downloads. One admin session per test file (signing in again revokes the last).
 */
export interface ApiSession {
  token: string;
  deviceId: string;
}

let admin: Promise<ApiSession> | null = null;

/** The admin session of this test file, signed in on first use. */
export function adminSession(): Promise<ApiSession> {
  admin ??= signInAdmin();
  return admin;
}

async function asAdmin<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const { token, deviceId } = await adminSession();
  return apiCall<T>(path, { ...init, token, deviceId });
}

let sequence = 0;

/** A short marker unique to this run, for titles and names that searches can find. */
export function uniqueStamp(): string {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
}

export interface SeededPlan {
  id: string;
  plan_name: string;
}

/** A plan customers can buy; expires at the end of next year so subscriptions stay in force. */
export async function createPlan(overrides: Record<string, unknown> = {}): Promise<SeededPlan> {
  const year = new Date().getFullYear() + 1;
  const { plan } = await asAdmin<{ plan: SeededPlan }>('/admin/subscription-plans', {
    method: 'POST',
    body: {
      plan_name: `Plan ${uniqueStamp()}`,
      price_ugx: 10000,
      description: '',
      features: ['Downloads'],
      global_expiry_date: `${year}-12-31T23:59`,
      ...overrides,
    },
  });
  return plan;
}

/** Bytes the server accepts as a movie: an MP4 `ftyp` box, then zeros, `size` bytes in all. */
export function mp4Bytes(size = 1024): Buffer {
  const head = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom')]);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length))]);
}

/** A small PNG poster (16:9) with the title on it. */
export function posterPng(title: string, palette: [string, string] = ['#f97316', '#431407']): Buffer {
  return generateDemoThumbnail({
    title,
    palette: [hexToRgb(palette[0]), hexToRgb(palette[1])],
    width: 320,
    height: 180,
  });
}

/** Bytes too many to hold in memory (a 1 GiB movie): how many, and a fresh stream of them on each call. */
export interface StreamedBytes {
  size: number;
  chunks: () => AsyncIterable<Uint8Array>;
}

const sizeOf = (bytes: Buffer | StreamedBytes) => (Buffer.isBuffer(bytes) ? bytes.length : bytes.size);

/** Uploads one object the way the admin screen does: ask for a link, PUT the bytes with its headers. */
export async function uploadObject(
  folder: 'movies' | 'thumbnails',
  file: { fileName: string; contentType: string; bytes: Buffer | StreamedBytes },
): Promise<string> {
  const fileSize = sizeOf(file.bytes);
  const link = await asAdmin<UploadLink>('/admin/movies/generate-upload-url', {
    method: 'POST',
    body: { fileName: file.fileName, fileType: file.contentType, fileSize, folder },
  });
  if (link.multipart) {
    await uploadInParts(link.s3Key, link.multipart, file.bytes);
    return link.s3Key;
  }
  if (!link.presignedUrl) throw new Error('The server offered neither an upload link nor a multipart upload.');
  const headers = Object.fromEntries(
    Object.entries(link.headers).filter(([name]) => !['content-length', 'host'].includes(name.toLowerCase())),
  );
  const url = new URL(link.presignedUrl, `${baseURL()}/`);
  const answer = Buffer.isBuffer(file.bytes)
    ? await fetch(url, { method: 'PUT', headers, body: new Uint8Array(file.bytes) }).then(async (response) => ({
        status: response.status,
        text: await response.text(),
      }))
    : await putStream(url, headers, file.bytes);
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`PUT ${folder} upload → ${answer.status}: ${answer.text}`);
  }
  return link.s3Key;
}

interface UploadLink {
  s3Key: string;
  presignedUrl: string | null;
  headers: Record<string, string>;
  multipart: { uploadId: string; partSize: number; parts: { partNumber: number; url: string }[] } | null;
}

/** The bytes cut into `partSize` pieces, read from a buffer or a stream without holding more than one part. */
async function* piecesOf(bytes: Buffer | StreamedBytes, partSize: number): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(bytes)) {
    for (let start = 0; start < bytes.length; start += partSize) yield bytes.subarray(start, start + partSize);
    return;
  }
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of bytes.chunks()) {
    let rest = Buffer.from(chunk);
    while (length + rest.length >= partSize) {
      const take = partSize - length;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      rest = rest.subarray(take);
      pending = [];
      length = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

/** A big movie the way the admin screen sends it when the server asks for parts: one PUT each, then complete. */
async function uploadInParts(
  s3Key: string,
  multipart: NonNullable<UploadLink['multipart']>,
  bytes: Buffer | StreamedBytes,
): Promise<void> {
  const parts: { partNumber: number; etag: string }[] = [];
  let partNumber = 0;
  for await (const piece of piecesOf(bytes, multipart.partSize)) {
    partNumber += 1;
    const link = multipart.parts.find((p) => p.partNumber === partNumber);
    if (!link) throw new Error(`No upload link for part ${partNumber}.`);
    const response = await fetch(new URL(link.url, `${baseURL()}/`), { method: 'PUT', body: new Uint8Array(piece) });
    const etag = response.headers.get('etag');
    if (!response.ok || !etag) throw new Error(`PUT part ${partNumber} → ${response.status}: ${await response.text()}`);
    parts.push({ partNumber, etag });
  }
  await asAdmin('/admin/movies/multipart/complete', {
    method: 'POST',
    body: { s3Key, uploadId: multipart.uploadId, parts },
  });
}

/** A streamed PUT with a Content-Length (a signed upload link takes no chunked body of unknown size). */
function putStream(
  url: URL,
  headers: Record<string, string>,
  bytes: StreamedBytes,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'PUT', headers: { ...headers, 'Content-Length': String(bytes.size) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    pipeline(Readable.from(bytes.chunks()), request).catch(reject);
  });
}

export interface SeededMovie {
  id: string;
  title: string;
  category: 'Kinayuganda' | 'English';
  vj: string;
  size: number;
  thumbnail_url: string | null;
}

/** Uploads a movie (and its poster, if given) and saves it attached to `planIds`, or to no plan without them. */
export async function uploadMovie(
  bytes: Buffer | StreamedBytes,
  movie: {
    title: string;
    category: 'Kinayuganda' | 'English';
    vj?: string;
    rating?: 'all' | 'pg' | '13' | '18';
    description?: string;
    planIds?: string[];
    thumbnail?: Buffer;
    /** The thumbnail's type (PNG unless told). */
    thumbnailType?: 'image/png' | 'image/jpeg';
  },
): Promise<SeededMovie> {
  const slug = movie.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const thumbnailType = movie.thumbnailType ?? 'image/png';
  const thumbnailS3Key = movie.thumbnail
    ? await uploadObject('thumbnails', {
        fileName: `${slug}.${thumbnailType === 'image/png' ? 'png' : 'jpg'}`,
        contentType: thumbnailType,
        bytes: movie.thumbnail,
      })
    : null;
  const movieS3Key = await uploadObject('movies', { fileName: `${slug}.mp4`, contentType: 'video/mp4', bytes });
  const saved = await asAdmin<{ movie: SeededMovie }>('/admin/movies', {
    method: 'POST',
    body: {
      title: movie.title,
      description: movie.description ?? null,
      vj: movie.vj ?? null,
      category: movie.category,
      rating: movie.rating ?? 'all',
      movieS3Key,
      thumbnailS3Key,
      size: sizeOf(bytes),
      planIds: movie.planIds,
    },
  });
  return saved.movie;
}

let stock: Promise<SeededMovie> | null = null;

/**
 * This test file's one small movie in no plan, for plans that must be for sale: a plan without an active movie is
 * neither listed nor sold (docs/decisions/0118). Give it with `createPlan({ movieIds: [(await stockMovie()).id] })`.
 */
export function stockMovie(): Promise<SeededMovie> {
  stock ??= uploadMovie(mp4Bytes(), { title: `Stock ${uniqueStamp()}`, category: 'Kinayuganda' });
  return stock;
}

/** A plan with this file's stock movie, so customers can buy it. */
export async function createSellablePlan(overrides: Record<string, unknown> = {}): Promise<SeededPlan> {
  return createPlan({ movieIds: [(await stockMovie()).id], ...overrides });
}

export interface SeededUser extends ApiSession {
  id: string;
  email: string;
  fullName: string;
  /** As registered: the local 07… form. */
  phone: string;
  password: string;
}

/** Registers a user through the API on a device of its own (no subscription yet). */
export async function registerUser(): Promise<SeededUser> {
  const details = newUser();
  const deviceId = randomUUID();
  const { token, user } = await apiCall<{ token: string; user: { id: string } }>('/auth/register', {
    method: 'POST',
    deviceId,
    body: { ...details, currentDeviceId: deviceId },
  });
  return { ...details, id: user.id, token, deviceId };
}

/** Subscribes a user to a plan (the admin's Manage Subscription → Activate / Extend). */
export async function subscribeUser(userId: string, planId: string): Promise<void> {
  await asAdmin(`/admin/subscribers/${userId}/manage-subscription`, {
    method: 'PUT',
    body: { action: 'activate_extend', subscription_plan_id: planId },
  });
}

/** Records a whole download of a movie for the user, as if their phone had received every byte. */
export async function completeDownload(
  user: ApiSession,
  movie: { id: string; size: number },
  options: { redownload?: boolean } = {},
): Promise<void> {
  const grant = await apiCall<{ downloadId: string; downloadUrl: string }>('/users/movies/generate-download-url', {
    method: 'POST',
    token: user.token,
    deviceId: user.deviceId,
    body: { movieId: movie.id, ...options },
  });
  // The server completes a download from the bytes its links delivered (decision 0110): receive them, as a phone would.
  const file = await fetch(grant.downloadUrl);
  if (!file.ok) throw new Error(`download link → ${file.status}`);
  await file.arrayBuffer();
  await apiCall(`/users/downloads/${grant.downloadId}/complete`, {
    method: 'PUT',
    token: user.token,
    deviceId: user.deviceId,
    body: { downloadedBytes: movie.size },
  });
}

export interface SeededAgent extends ApiSession {
  email: string;
  fullName: string;
}

/** Creates an agent as the admin and signs it in through the API on a device of its own. */
export async function createAgent(): Promise<SeededAgent> {
  const stamp = uniqueStamp();
  const email = `agent-${stamp}@filamu.test`;
  const fullName = `Agent ${stamp}`;
  const { generatedPassword } = await asAdmin<{ generatedPassword: string }>('/agents', {
    method: 'POST',
    body: { full_name: fullName, phone: `07${String(Date.now()).slice(-8)}`, email, send_credentials_via: 'none' },
  });
  const deviceId = randomUUID();
  const { token } = await apiCall<{ token: string }>('/auth/agent/login', {
    method: 'POST',
    deviceId,
    body: { email, password: generatedPassword, currentDeviceId: deviceId },
  });
  return { token, deviceId, email, fullName };
}

/**
 * Opens every page of `context` signed in as `account` on its device, in the given theme, by putting the
 * session where the PWA keeps it (`filamu.session`, `filamu.deviceId`, `theme`) before any script runs.
 */
export async function signInContext(
  context: BrowserContext,
  account: ApiSession,
  theme: 'light' | 'dark' = 'light',
  kind: 'user' | 'agent' = 'user',
): Promise<void> {
  await context.addInitScript(
    ({ token, deviceId, theme, kind }) => {
      // Once per session: a later page of the context keeps what the app saved with it (the profile, for offline).
      const saved = JSON.parse(localStorage.getItem('filamu.session') ?? 'null') as { token?: string } | null;
      if (saved?.token !== token) localStorage.setItem('filamu.session', JSON.stringify({ token, kind }));
      localStorage.setItem('filamu.deviceId', deviceId);
      localStorage.setItem('theme', theme);
    },
    { token: account.token, deviceId: account.deviceId, theme, kind },
  );
}
