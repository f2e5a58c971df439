import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectKey } from '../features/storage/storage.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  newUser,
  testDatabases,
} from '../../test/harness.ts';

describe.each(testDatabases)('text Postgres cannot store, refused at the edge, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const users = async () =>
    (
      (await t.deps.database.db.execute(sql`select count(*)::int as n from users`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n;
  const register = (body: unknown, headers: Record<string, string> = {}) =>
    t.request('POST', '/api/auth/register', { body, ip: freshIp(), headers });

  it('refuses a NUL in the path or the query with 400, before any route reads it', async () => {
    for (const url of [
      '/api/payments/verify/tok%00',
      '/api/users/public-movies?search=%00',
      '/api/users/public-movies?a%00b=1',
      '/api/users/public-movies?search=x%00y&page=1',
      '/files/movies/x%00.mp4',
    ]) {
      expectErrorEnvelope(
        await t.request('GET', url),
        400,
        'bad_request',
        'The address cannot contain a NUL character (%00).',
      );
    }
  });

  it('refuses a NUL in any JSON string or key, naming the field, and writes nothing', async () => {
    const before = await users();
    const value = await register(newUser({ fullName: 'Robert\u0000' }));
    expectErrorEnvelope(value, 400, 'validation_error', 'fullName: Text cannot contain a NUL character (\\u0000).');
    expect(value.json.error.issues).toEqual([
      { path: 'fullName', message: 'Text cannot contain a NUL character (\\u0000).' },
    ]);
    const key = await register({ ...newUser(), extra: { list: [{ 'a\u0000b': 1 }] } });
    expectErrorEnvelope(key, 400, 'validation_error', /^extra\.list\.0\.a\\0b: Field names: /);
    expect(await users()).toBe(before);
  });

  it('refuses a lone surrogate (Postgres would store U+FFFD, or fail in jsonb) but takes emoji and right-to-left text', async () => {
    const lone = await register(newUser({ fullName: 'Ana \ud83d' }));
    expectErrorEnvelope(
      lone,
      400,
      'validation_error',
      'fullName: Text must be valid Unicode (it contains a lone surrogate).',
    );
    const fine = await register(newUser({ fullName: '🎬 \u202Eأمينة' }));
    expect(fine.status, fine.text).toBe(201);
    expect(fine.json.user.fullName).toBe('🎬 \u202Eأمينة');
  });

  it('checks a urlencoded form where one is read (delivery reports); a JSON route refuses a form unread (415)', async () => {
    const secret = 'delivery-report-secret-for-tests';
    const formType = { 'content-type': 'application/x-www-form-urlencoded' };
    const withReports = await createTestApp(kind, {
      env: { AT_API_KEY: 'k', AT_USERNAME: 'u', SMS_DELIVERY_REPORT_SECRET: secret },
    });
    try {
      const report = await withReports.request('POST', `/api/sms/delivery-reports?secret=${secret}`, {
        rawBody: 'id=a%00&status=Success',
        headers: formType,
      });
      expectErrorEnvelope(report, 400, 'validation_error', /^id: Text cannot contain/);
    } finally {
      await withReports.close();
    }
    const form = await t.request('POST', '/api/auth/login', {
      rawBody: 'identifier=a%00&password=x',
      headers: formType,
    });
    expectErrorEnvelope(form, 415, 'unsupported_media_type');
    const text = await t.request('POST', '/api/auth/login', {
      rawBody: 'a\u0000b',
      headers: { 'content-type': 'text/plain' },
    });
    expectErrorEnvelope(text, 415, 'unsupported_media_type');
  });

  it('answers a JSON value nested 200,000 deep with a 400, not a stack overflow', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      rawBody: `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expectErrorEnvelope(res, 400, 'validation_error');
  });

  it('never reads a file upload: NUL bytes in a movie reach storage intact', async () => {
    const key = newObjectKey('movies', 'video/mp4')!;
    const bytes = Buffer.alloc(4096); // all zeros
    Buffer.from('000000186674797069736f6d0000020069736f6d', 'hex').copy(bytes, 0);
    const upload = await t.deps.storage.presignPut(key, {
      contentType: 'video/mp4',
      maxBytes: bytes.length,
      expiresInSeconds: 900,
    });
    const res = await t.app.request(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
    expect(res.status, await res.text()).toBe(200);
    expect(Buffer.from(await t.deps.storage.readStart(key, bytes.length)).equals(bytes)).toBe(true);
  });
});
