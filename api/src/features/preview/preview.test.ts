import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movies } from '../../db/schema.ts';
import { posterKey } from '../storage/storage.ts';
import { createTestApp, loginAdmin, type TestApp, testDatabases } from '../../../test/harness.ts';
import { addMovie, createPlan } from '../../../test/library.ts';
import { PREVIEW_TTL_MS } from './preview.ts';

/** The page as a guest's browser gets it: no token, no cookie. */
async function browse(t: TestApp, path = '/browse', headers: Record<string, string> = {}) {
  const response = await t.app.request(path, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, html: bytes.toString('utf8') };
}

describe.each(testDatabases)('public preview (/browse) on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let basicId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await loginAdmin(t);
    basicId = await createPlan(t, admin, { plan_name: 'Basic', price_ugx: 10_000, description: 'A month of VJ films' });
  });
  afterAll(() => t.close());

  it('shows a guest the live movies with their plans, and the plans on sale with their UGX prices', async () => {
    const hiddenPlan = await createPlan(t, admin, { plan_name: 'Staff Secret Plan', is_visible: false });
    const { movie } = await addMovie(t, admin, {
      title: 'Jogoo Returns',
      vj: 'VJ Emmy',
      category: 'Kinayuganda',
      rating: '13',
      thumbnail: true,
      planIds: [basicId, hiddenPlan],
    });
    await t.deps.database.db.update(movies).set({ durationSeconds: 6120 }).where(eq(movies.id, movie.id));

    const page = await browse(t);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.html).toContain('<h3>Jogoo Returns</h3>');
    expect(page.html).toContain('VJ Emmy · 1 h 42 min · Rated 13+');
    expect(page.html).toContain('In Basic</p>');
    expect(page.html).toContain('<h3>Basic</h3><p class="price">UGX 10,000</p>');
    expect(page.html).toMatch(/Access until 31 Dec 2027, 11:59 PM \(Kampala\) · \d+ days/);
    expect(page.html).toContain('href="/register">Create an account</a>');
    expect(page.html).toContain('href="/login">Sign in</a>');
    // The hidden plan is neither offered nor named, and the page has no script at all.
    expect(page.html).not.toContain('Staff Secret Plan');
    expect(page.html).not.toContain('<script');
    // The poster: a picture anyone may load, sized so nothing moves while it arrives; never the movie's file.
    expect(page.html).toMatch(
      /<img src="\/files\/thumbnails\/[^"]+" width="160" height="90" loading="lazy" decoding="async" alt="">/,
    );
    expect(page.html).not.toContain(movie.s3_key);
  });

  it('shows the narrowest poster once posters are made', async () => {
    const { movie } = await addMovie(t, admin, { title: 'Poster Movie', planIds: [basicId] });
    const variants = [480, 160, 320].map((width) => ({ width, key: posterKey(movie.id, width) }));
    await t.deps.database.db.update(movies).set({ posterVariants: variants }).where(eq(movies.id, movie.id));
    t.clock.advance(PREVIEW_TTL_MS);
    const { html } = await browse(t);
    expect(html).toContain(`<img src="/files/posters/${movie.id}/160.webp" width="160" height="90"`);
    expect(html).not.toContain(`${movie.id}/480.webp`);
    // Saved without a VJ: the card names none (the database's "N/A" is not a name).
    expect(html).toContain('<h3>Poster Movie</h3><p class="facts">Rated All</p>');
  });

  it('leaves out hidden movies, plans not on sale and 18+ titles, and says how many 18+ titles there are', async () => {
    const oldPlan = await createPlan(t, admin, { plan_name: 'Old Plan' });
    const { movie: hidden } = await addMovie(t, admin, { title: 'Hidden Movie', planIds: [basicId] });
    const toggled = await t.request('PUT', `/api/admin/movies/${hidden.id}/toggle-active`, {
      token: admin,
      body: { is_active: false },
    });
    expect(toggled.status).toBe(200);
    await addMovie(t, admin, { title: 'Grown-up Movie', category: 'English', rating: '18', planIds: [basicId] });
    await addMovie(t, admin, {
      title: 'Old Plan Movie',
      category: 'English',
      vj: 'Filamu Originals',
      planIds: [oldPlan],
    });
    const closed = await t.request('PUT', `/api/admin/subscription-plans/${oldPlan}`, {
      token: admin,
      body: { is_active: false },
    });
    expect(closed.status).toBe(200);
    t.clock.advance(PREVIEW_TTL_MS);

    const { html } = await browse(t);
    expect(html).not.toContain('Hidden Movie');
    expect(html).not.toContain('Grown-up Movie');
    expect(html).not.toContain('Old Plan</h3>');
    expect(html).toContain('1 title rated 18+ is not shown on this public page');
    expect(html).toContain('<h3>Old Plan Movie</h3><p class="facts">From Filamu Originals · Rated All</p>');
    expect(html).toContain('Not in a plan on sale now');
  });

  it('escapes what admins typed: a <script> in a title or a description is text', async () => {
    await addMovie(t, admin, {
      title: '<script>alert("x")</script> & Co',
      description: `<img src=x onerror=alert(1)> "quoted" 'single'`,
      planIds: [basicId],
    });
    t.clock.advance(PREVIEW_TTL_MS);
    const { html } = await browse(t);
    expect(html).toContain('<h3>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</h3>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &#39;single&#39;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img src=x');
  });

  it('cuts a long description to a couple of lines, at a word', async () => {
    const words = 'A retired kung fu master returns to his village to face the gang that burned his school, ';
    await addMovie(t, admin, { title: 'Long Story', description: words.repeat(20), planIds: [basicId] });
    t.clock.advance(PREVIEW_TTL_MS);
    const { html } = await browse(t);
    const shown = /<h3>Long Story<\/h3><p class="facts">[^<]*<\/p><p class="desc">([^<]*)<\/p>/.exec(html)?.[1];
    expect(shown).toMatch(/^A retired kung fu master .* [a-z]+…$/);
    expect(shown!.length).toBeLessThanOrEqual(141);
  });

  it('is cached: the same page for a minute, revalidated by ETag, and renewed once the library changes', async () => {
    t.clock.advance(PREVIEW_TTL_MS);
    const first = await browse(t);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(first.headers.get('last-modified')!)).not.toBeNaN();

    const revalidated = await browse(t, '/browse', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.bytes).toHaveLength(0);
    const since = await browse(t, '/browse', { 'if-modified-since': first.headers.get('last-modified')! });
    expect(since.status).toBe(304);

    await addMovie(t, admin, { title: 'Brand New Release', planIds: [basicId] });
    // Within the minute, the page held is answered as it is (no database read)…
    expect((await browse(t)).html).not.toContain('Brand New Release');
    // …then the next request renders it again.
    t.clock.advance(PREVIEW_TTL_MS);
    const renewed = await browse(t, '/browse', { 'if-none-match': etag });
    expect(renewed.status).toBe(200);
    expect(renewed.html).toContain('Brand New Release');
    expect(renewed.headers.get('etag')).not.toBe(etag);

    // Nothing changed: the next rendering keeps the ETag and the date, so browsers still get 304.
    t.clock.advance(PREVIEW_TTL_MS);
    const again = await browse(t, '/browse', { 'if-none-match': renewed.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('sends the page compressed to browsers that accept it', async () => {
    const plain = await browse(t);
    const br = await browse(t, '/browse', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.bytes).toString('utf8')).toBe(plain.html);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    const gz = await browse(t, '/browse', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString('utf8')).toBe(plain.html);
    // Each coding has its own ETag: a cache never mixes their bytes.
    expect(new Set([plain, br, gz].map((page) => page.headers.get('etag'))).size).toBe(3);
  });

  it('answers odd requests without an error: query strings are ignored, a trailing slash is the same page', async () => {
    const plain = await browse(t);
    for (const path of [
      '/browse?page=-1',
      '/browse?category=%3Cscript%3E',
      `/browse?search=${'a'.repeat(4000)}`,
      '/browse?a=1&a=2&b',
      '/browse/',
    ]) {
      const page = await browse(t, path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toBe(plain.html);
    }
    const head = await t.app.request('/browse', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const refused = await t.app.request('/browse', { method });
      expect(refused.status, method).toBe(404);
    }
    expect((await t.app.request('/browse/anything')).status).toBe(404);
  });

  it('says so when nothing is on sale and the library is empty', async () => {
    const empty = await createTestApp(kind);
    try {
      const { html } = await browse(empty);
      expect(html).toContain('No plan is on sale at this moment.');
      expect(html).toContain('No Kinayuganda movies yet.');
      expect(html).toContain('No English movies yet.');
    } finally {
      await empty.close();
    }
  });
});
