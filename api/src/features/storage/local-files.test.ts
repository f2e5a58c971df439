import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type RunningLocalFiles, startLocalFiles } from './local.testing.ts';
import { newObjectKey } from './storage.ts';

/** Over real loopback HTTP: bytes, statuses and headers as a browser or download manager sees them. */

const FIXTURE_SIZE = 3 * 1024 * 1024 + 12_345;
const PWA_ORIGIN = 'https://app.filamu.test';

let files: RunningLocalFiles;
let fixture: Buffer;
let movieKey: string;
let movieUrl: string;
let etag: string;

beforeAll(async () => {
  files = await startLocalFiles({ corsOrigins: [PWA_ORIGIN] });
  fixture = randomBytes(FIXTURE_SIZE);
  movieKey = newObjectKey('movies', 'video/mp4')!;
  await files.storage.put(movieKey, fixture, 'video/mp4');
  movieUrl = files.absolute(await files.storage.presignGet(movieKey, { expiresInSeconds: 3600, grant: 'grant-1' }));
  etag = (await files.storage.head(movieKey))!.etag;
});

afterAll(async () => {
  await files?.close();
});

async function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(url, { method, headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

/** The API's envelope, its requestId tied to X-Request-Id. */
function expectEnvelope(res: { status: number; headers: Headers; body: Buffer }, status: number, code: string) {
  expect(res.status).toBe(status);
  const json = JSON.parse(res.body.toString('utf8')) as { error: { code: string; message: string; requestId: string } };
  expect(json.error.code).toBe(code);
  expect(json.error.message.length).toBeGreaterThan(0);
  expect(json.error.requestId).toBe(res.headers.get('x-request-id'));
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** A Range header (or none) with what RFC 9110 makes of it on FIXTURE_SIZE bytes, computed independently. */
type RangeCase = {
  headers: Record<string, string>;
  expected: { status: 200 } | { status: 206; start: number; end: number } | { status: 416 };
};

const offset = fc.oneof(
  fc.nat({ max: FIXTURE_SIZE + 100 }),
  fc.constantFrom(0, FIXTURE_SIZE - 1, FIXTURE_SIZE, 2 ** 31 + 7, 2 ** 53 + 3),
);
const rangeCase: fc.Arbitrary<RangeCase> = fc.oneof(
  fc.tuple(offset, offset).map(([a, b]): RangeCase => {
    const [first, last] = a <= b ? [a, b] : [b, a];
    return {
      headers: { Range: `bytes=${first}-${last}` },
      expected:
        first >= FIXTURE_SIZE ? { status: 416 } : { status: 206, start: first, end: Math.min(last, FIXTURE_SIZE - 1) },
    };
  }),
  offset.map((first): RangeCase => ({
    headers: { Range: `bytes=${first}-` },
    expected: first >= FIXTURE_SIZE ? { status: 416 } : { status: 206, start: first, end: FIXTURE_SIZE - 1 },
  })),
  offset.map((length): RangeCase => ({
    headers: { Range: `bytes=-${length}` },
    expected:
      length === 0
        ? { status: 416 }
        : { status: 206, start: Math.max(0, FIXTURE_SIZE - length), end: FIXTURE_SIZE - 1 },
  })),
  fc
    .constantFrom('bytes=5-2', 'bytes=abc', 'bytes=1-2-3', 'lines=0-9', 'bytes 0-9', 'bytes=-', '=0-1', 'bytes=\t')
    .map((range): RangeCase => ({ headers: { Range: range }, expected: { status: 200 } })),
  fc
    .stringMatching(/^[ -~]{0,30}$/)
    .filter((text) => !/^\s*bytes\s*=/i.test(text))
    .map((range): RangeCase => ({ headers: { Range: range }, expected: { status: 200 } })),
  fc
    .array(fc.tuple(fc.nat({ max: FIXTURE_SIZE }), fc.nat({ max: 1000 })), { minLength: 2, maxLength: 6 })
    .map((parts): RangeCase => ({
      headers: { Range: `bytes=${parts.map(([first, length]) => `${first}-${first + length}`).join(',')}` },
      expected: { status: 200 },
    })),
  fc
    .tuple(fc.nat({ max: FIXTURE_SIZE - 1 }), fc.constantFrom('weak', 'other', 'date'))
    .map(([first, kind]): RangeCase => {
      const ifRange = kind === 'weak' ? `W/${etag}` : kind === 'other' ? '"0-0-0"' : new Date(0).toUTCString();
      return { headers: { Range: `bytes=${first}-`, 'If-Range': ifRange }, expected: { status: 200 } };
    }),
  fc.nat({ max: FIXTURE_SIZE - 1 }).map((first): RangeCase => ({
    headers: { Range: `bytes=${first}-`, 'If-Range': etag },
    expected: { status: 206, start: first, end: FIXTURE_SIZE - 1 },
  })),
  fc.constant<RangeCase>({ headers: {}, expected: { status: 200 } }),
);

describe('GET with Range over loopback (security C17)', () => {
  it('answers 300 random range requests with exact bytes, statuses and headers', async () => {
    await fc.assert(
      fc.asyncProperty(rangeCase, async ({ headers, expected }) => {
        const res = await get(movieUrl, headers);
        expect(res.status).toBe(expected.status);
        expect(res.headers.get('accept-ranges')).toBe('bytes');
        if (expected.status === 416) {
          expect(res.headers.get('content-range')).toBe(`bytes */${FIXTURE_SIZE}`);
          expectEnvelope(res, 416, 'bad_request');
          return;
        }
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('cache-control')).toBe('private, no-store, no-transform');
        expect(res.headers.get('content-type')).toBe('video/mp4');
        if (expected.status === 200) {
          expect(res.headers.get('content-range')).toBeNull();
          expect(res.headers.get('content-length')).toBe(String(FIXTURE_SIZE));
          expect(res.body.equals(fixture)).toBe(true);
        } else {
          const { start, end } = expected;
          expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${FIXTURE_SIZE}`);
          expect(res.headers.get('content-length')).toBe(String(end - start + 1));
          expect(res.body.equals(fixture.subarray(start, end + 1))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reassembles the file from randomly interrupted, resumed requests with the same SHA-256', async () => {
    const source = createHash('sha256').update(fixture).digest('hex');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: FIXTURE_SIZE }), { minLength: 1, maxLength: 12 }),
        async (cuts) => {
          const received: Buffer[] = [];
          let offset = 0;
          for (let attempt = 0; offset < FIXTURE_SIZE; attempt++) {
            const cut = cuts[attempt] ?? FIXTURE_SIZE;
            const abort = new AbortController();
            const response = await fetch(movieUrl, {
              headers: offset === 0 ? {} : { Range: `bytes=${offset}-`, 'If-Range': etag },
              signal: abort.signal,
            });
            if (offset > 0) {
              // What a resuming client must check before it appends anything.
              expect(response.status).toBe(206);
              expect(response.headers.get('content-range')).toBe(`bytes ${offset}-${FIXTURE_SIZE - 1}/${FIXTURE_SIZE}`);
            }
            expect(response.headers.get('etag')).toBe(etag);
            const reader = response.body!.getReader();
            let taken = 0;
            try {
              while (taken < cut) {
                const { done, value } = await reader.read();
                if (done) break;
                received.push(Buffer.from(value));
                taken += value.length;
              }
            } finally {
              abort.abort();
              await reader.cancel().catch(() => {});
            }
            offset += taken;
          }
          expect(offset).toBe(FIXTURE_SIZE);
          expect(createHash('sha256').update(Buffer.concat(received)).digest('hex')).toBe(source);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('sends HEAD with the headers of a GET and no body, ignoring Range (§14.2)', async () => {
    const head = await get(movieUrl, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(FIXTURE_SIZE));
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(head.headers.get('last-modified')).toMatch(/GMT$/);
    expect(head.headers.get('content-disposition')).toBe(`attachment; filename="${movieKey.slice(7)}"`);
    const ranged = await get(movieUrl, { Range: 'bytes=0-9' }, 'HEAD');
    expect(ranged.status).toBe(200);
    expect(ranged.headers.get('content-length')).toBe(String(FIXTURE_SIZE));
  });

  it('marks signed answers as uncacheable capabilities: no referrer, nosniff, no-transform', async () => {
    const res = await get(movieUrl, { Range: 'bytes=0-0' });
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store, no-transform');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('names the download after the title the link was signed with (RFC 6266 / 5987)', async () => {
    const name = 'Ekisa "Kyange" — Ép. 2 (2026).mp4';
    const link = await files.storage.presignGet(movieKey, { expiresInSeconds: 60, downloadName: name });
    const res = await get(files.absolute(link), { Range: 'bytes=0-0' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Ekisa _Kyange_ _ Ep. 2 (2026).mp4"; filename*=UTF-8''Ekisa%20%22Kyange%22%20%E2%80%94%20%C3%89p.%202%20%282026%29.mp4`,
    );
  });

  it('closes the file when clients go away mid-stream (no descriptor leak, no crash)', async () => {
    const bigKey = newObjectKey('movies', 'video/mp4')!;
    await files.storage.put(bigKey, Buffer.alloc(48 * 1024 * 1024, 7), 'video/mp4');
    const bigPath = join(files.dir, bigKey);
    const openOnBig = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === bigPath;
        } catch {
          return false;
        }
      }).length;
    const link = files.absolute(await files.storage.presignGet(bigKey, { expiresInSeconds: 60 }));
    for (let i = 0; i < 20; i++) {
      const abort = new AbortController();
      const response = await fetch(link, { signal: abort.signal, headers: i % 2 ? { Range: 'bytes=1000-' } : {} });
      const reader = response.body!.getReader();
      await reader.read();
      abort.abort();
      await reader.cancel().catch(() => {});
    }
    await eventually(() => openOnBig() === 0);
    // The server still answers, with the right bytes.
    const after = await get(movieUrl, { Range: 'bytes=100-199' });
    expect(after.body.equals(fixture.subarray(100, 200))).toBe(true);
  });
});

describe('signed links over HTTP', () => {
  it('refuses tampered links with 403 (fast-check over single mutations)', async () => {
    const name = 'Mukwano.mp4';
    const link = new URL(
      files.absolute(
        await files.storage.presignGet(movieKey, { expiresInSeconds: 600, grant: 'g-1', downloadName: name }),
      ),
    );
    const otherKey = newObjectKey('movies', 'video/mp4')!;
    await files.storage.put(otherKey, randomBytes(10), 'video/mp4');
    const signature = link.searchParams.get('sig')!;
    const change = fc.oneof(
      fc.nat({ max: 255 }).map((bit) => (url: URL) => {
        const bytes = Buffer.from(signature, 'base64url');
        bytes[bit >> 3]! ^= 1 << (bit & 7);
        url.searchParams.set('sig', bytes.toString('base64url'));
      }),
      fc.constantFrom(-1, 1, 3600).map((delta) => (url: URL) => {
        url.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + delta));
      }),
      fc.constantFrom('exp', 'grant', 'name', 'sig').map((param) => (url: URL) => url.searchParams.delete(param)),
      fc.constantFrom('g-2', '', 'g-1 ').map((grant) => (url: URL) => url.searchParams.set('grant', grant)),
      fc.constantFrom('Other.mp4', 'mukwano.mp4').map((other) => (url: URL) => url.searchParams.set('name', other)),
      fc.constant((url: URL) => {
        url.pathname = `/files/${otherKey}`;
      }),
    );
    await fc.assert(
      fc.asyncProperty(change, async (apply) => {
        const url = new URL(link);
        apply(url);
        expectEnvelope(await get(url.toString()), 403, 'forbidden');
      }),
      { numRuns: 150 },
    );
    expect((await get(link.toString(), { Range: 'bytes=0-0' })).status).toBe(206);
  });

  it('refuses a download link used for PUT, and an upload link used for GET', async () => {
    const key = newObjectKey('movies', 'video/mp4')!;
    const download = files.absolute(await files.storage.presignGet(key, { expiresInSeconds: 60 }));
    const put = await fetch(download, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: 'x' });
    expect(put.status).toBe(403);
    const upload = await files.storage.presignPut(movieKey, {
      contentType: 'video/mp4',
      maxBytes: 10,
      expiresInSeconds: 60,
    });
    expectEnvelope(await get(files.absolute(upload.url)), 403, 'forbidden');
  });

  it('expires on the injected clock: 200 a millisecond before, 403 a second after', async () => {
    const link = files.absolute(await files.storage.presignGet(movieKey, { expiresInSeconds: 60 }));
    files.clock.advance(60_000 - 1);
    expect((await get(link, { Range: 'bytes=0-0' })).status).toBe(206);
    files.clock.advance(1 + 1000);
    expectEnvelope(await get(link), 403, 'forbidden');
  });

  it('answers 404 for a valid link to an object that does not exist', async () => {
    const key = newObjectKey('movies', 'video/mp4')!;
    const link = files.absolute(await files.storage.presignGet(key, { expiresInSeconds: 60 }));
    expectEnvelope(await get(link), 404, 'not_found');
    const head = await get(link, {}, 'HEAD');
    expect(head.status).toBe(404);
    expect(head.body.length).toBe(0);
  });
});

describe('public thumbnails', () => {
  it('serves thumbnails without a signature, cacheable forever, inline', async () => {
    const key = newObjectKey('thumbnails', 'image/png')!;
    const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), randomBytes(500)]);
    await files.storage.put(key, png, 'image/png');
    const url = files.storage.publicUrl(key);
    expect(url).toBe(`/files/${key}`);
    const res = await get(files.absolute(url!));
    expect(res.status).toBe(200);
    expect(res.body.equals(png)).toBe(true);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('inline');
    // A signature on a thumbnail is still checked.
    expectEnvelope(await get(`${files.absolute(url!)}?exp=99999999999&sig=AAAA`), 403, 'forbidden');
  });

  it('never serves a movie without a signature, and gives movies no public URL', async () => {
    expect(files.storage.publicUrl(movieKey)).toBeNull();
    expectEnvelope(await get(files.absolute(`/files/${movieKey}`)), 403, 'forbidden');
  });
});

describe('CORS for the configured second origin', () => {
  it('lets the allowed origin read the headers a resumable download needs', async () => {
    const res = await get(movieUrl, { Origin: PWA_ORIGIN, Range: 'bytes=0-9' });
    expect(res.status).toBe(206);
    expect(res.headers.get('access-control-allow-origin')).toBe(PWA_ORIGIN);
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    const exposed = res.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['ETag', 'Content-Range', 'Accept-Ranges', 'Content-Length', 'Content-Disposition']),
    );
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('answers the preflight of Range / If-Range requests', async () => {
    const res = await fetch(movieUrl, {
      method: 'OPTIONS',
      headers: {
        Origin: PWA_ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'range, if-range',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PWA_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, PUT');
    expect(res.headers.get('access-control-allow-headers')).toBe('Range, If-Range, Content-Type');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('gives a foreign origin no CORS headers at all', async () => {
    const res = await get(movieUrl, { Origin: 'https://evil.example', Range: 'bytes=0-9' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
    const preflight = await fetch(movieUrl, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('keys and paths', () => {
  /** Raw request paths, exactly as sent (fetch would normalise `..` away). */
  function rawGet(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const { port } = new URL(files.url);
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('never serves anything outside the folder, nor a non-server key, nor an upload in progress', async () => {
    const secret = `outside-${randomBytes(8).toString('hex')}`;
    const outside = join(tmpdir(), `${secret}.mp4`);
    writeFileSync(outside, secret);
    // What an upload in progress looks like on disk: it must not be reachable before it is published.
    const uploadName = `${randomBytes(4).toString('hex')}.part`;
    mkdirSync(join(files.dir, '.uploads'), { recursive: true });
    writeFileSync(join(files.dir, '.uploads', uploadName), secret);
    const folderName = files.dir.slice(files.dir.lastIndexOf('/') + 1);
    const attempts = [
      `/files/../${secret}.mp4`,
      `/files/movies/../../${secret}.mp4`,
      `/files/movies/..%2F..%2F${secret}.mp4`,
      `/files/%2e%2e/${folderName}/.uploads/${uploadName}`,
      `/files/.uploads%2f${uploadName}`,
      `/files/movies/%2e%2e%2f%2e%2e%2f${secret}.mp4`,
      `/files/thumbnails/..%5c..%5c${secret}.mp4`,
      `/files/.uploads/${uploadName}`,
      `/files/movies/not-a-uuid.mp4`,
      `/files/music/${movieKey.slice(7)}`,
      `/files/${movieKey.toUpperCase()}`,
      `/files/${movieKey}/`,
      `/files/${movieKey}%00.txt`,
      `/files/movies`,
      `/files`,
    ];
    for (const path of attempts) {
      const res = await rawGet(path);
      expect([400, 403, 404], path).toContain(res.status);
      expect(res.body, path).not.toContain(secret);
    }
  });

  it('moves a server-made file in whole: its bytes under the key, the work file gone, no temp file left', async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'filamu-work-'));
    const work = join(workDir, 'encrypt-1.filamu');
    const bytes = randomBytes(256 * 1024 + 3);
    writeFileSync(work, bytes);
    const before = readdirSync(join(files.dir, '.uploads')).sort();
    const key = newObjectKey('movies', 'video/mp4')!;
    await files.storage.moveFileIn(key, work, 'application/octet-stream');
    expect(existsSync(work)).toBe(false);
    expect(readFileSync(join(files.dir, key)).equals(bytes)).toBe(true);
    expect(readdirSync(join(files.dir, '.uploads')).sort()).toEqual(before);
    const served = await get(files.absolute(await files.storage.presignGet(key, { expiresInSeconds: 60, grant: 'g' })));
    expect(served.body.equals(bytes)).toBe(true);
  });

  it('answers other methods with 405', async () => {
    const res = await fetch(movieUrl, { method: 'DELETE' });
    expect(res.status).toBe(405);
  });
});
