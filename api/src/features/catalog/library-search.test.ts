import { UserMovieList } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';
import { DOWNLOAD_COUNTS_TTL_MS } from './catalogue.ts';
import { matches, searchableOf, withinEdits } from './search.ts';

describe('search words', () => {
  it('forgives one edit from 4 letters, two from 8, none below', () => {
    expect(withinEdits('kampla', 'kampala', 1)).toBe(true);
    expect(withinEdits('kmpla', 'kampala', 1)).toBe(false);
    expect(withinEdits('victorai', 'victoria', 2)).toBe(true);
    const movie = searchableOf({ title: 'Kampala Express', vj: 'VJ Ice P', description: null });
    expect(matches(movie, ['kampla'])).toBe(true);
    expect(matches(movie, ['kampla', 'expres'])).toBe(true);
    expect(matches(movie, ['kampla', 'nights'])).toBe(false);
    expect(matches(movie, ['ice'])).toBe(true);
    // Three letters are matched exactly only: "ica" is not "ice".
    expect(matches(movie, ['ica'])).toBe(false);
  });
});

/** Search on VJ and with typos, the VJ filter and the most-downloaded order (decision 0168). */
describe.each(testDatabases)('library search and sort on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    const planId = await createPlan(t, adminToken);
    const add = async (title: string, vj: string) => {
      ids[title] = (await addMovie(t, adminToken, { title, vj, category: 'Kinayuganda', planIds: [planId] })).movie.id;
      t.clock.advance(1000);
    };
    await add('Kampala Express', 'VJ Ice P');
    await add('Jungle Commando', 'VJ Jingo');
    await add('Shadow of the Dragon', 'VJ Junior');
    await add('The Last Warrior', 'VJ Jingo');
    const { token: own, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    token = own;
    // Two people download Jungle Commando, one Shadow of the Dragon.
    const other = await registerUser(t);
    await subscribe(t, adminToken, other.user.id, planId);
    for (const [who, title] of [
      [token, 'Jungle Commando'],
      [other.token, 'Jungle Commando'],
      [other.token, 'Shadow of the Dragon'],
    ] as const) {
      const grant = await t.request('POST', '/api/users/movies/generate-download-url', {
        token: who,
        body: { movieId: ids[title] },
      });
      expect(grant.status, grant.text).toBe(200);
      await fetchLink(t, grant.json.downloadUrl as string);
      const done = await t.request('PUT', `/api/users/downloads/${grant.json.downloadId}/complete`, {
        token: who,
        body: { downloadedBytes: grant.json.fileSize },
      });
      expect(done.status, done.text).toBe(200);
    }
  });
  afterAll(() => t.close());

  const titles = async (query: string) => {
    const res = await t.request('GET', `/api/users/movies?${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return UserMovieList.parse(res.json).movies.map((m) => m.title);
  };

  it('finds movies by VJ, and by a title with a typo', async () => {
    expect(await titles('search=jingo')).toEqual(['The Last Warrior', 'Jungle Commando']);
    expect(await titles('search=vj%20jingo')).toEqual(['The Last Warrior', 'Jungle Commando']);
    expect(await titles('search=kampla')).toEqual(['Kampala Express']);
    expect(await titles('search=dragn%20shadow')).toEqual(['Shadow of the Dragon']);
    expect(await titles('search=nothing%20like%20it')).toEqual([]);
    const public_ = await t.request('GET', '/api/users/public-movies?search=jingo');
    expect((public_.json.movies as { title: string }[]).map((m) => m.title)).toEqual([
      'The Last Warrior',
      'Jungle Commando',
    ]);
    expectErrorEnvelope(
      await t.request('GET', `/api/users/movies?search=${'a'.repeat(101)}`, { token }),
      400,
      'validation_error',
    );
  });

  it('filters by one VJ, in any case', async () => {
    expect(await titles('vj=vj%20JINGO')).toEqual(['The Last Warrior', 'Jungle Commando']);
    expect(await titles('vj=VJ%20Ice')).toEqual([]);
  });

  it('sorts by most downloaded, newest first among equals (counts a few minutes old at most)', async () => {
    t.clock.advance(DOWNLOAD_COUNTS_TTL_MS);
    expect(await titles('sort=popular')).toEqual([
      'Jungle Commando',
      'Shadow of the Dragon',
      'The Last Warrior',
      'Kampala Express',
    ]);
    expect(await titles('sort=newest')).toEqual([
      'The Last Warrior',
      'Shadow of the Dragon',
      'Jungle Commando',
      'Kampala Express',
    ]);
    expectErrorEnvelope(await t.request('GET', '/api/users/movies?sort=rating', { token }), 400, 'validation_error');
  });
});
