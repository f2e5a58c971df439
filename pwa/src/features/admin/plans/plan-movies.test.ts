import type { AdminMovie } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import {
  activeChosen,
  movieIdsOfPlan,
  saleState,
  sameIds,
  searchMovies,
  unsellable,
  withCategory,
} from './plan-movies.ts';

const movie = (id: string, overrides: Partial<AdminMovie> = {}): AdminMovie => ({
  id,
  title: `Movie ${id}`,
  description: null,
  category: 'Kinayuganda',
  vj: 'VJ Junior',
  rating: 'all',
  certificate_number: null,
  certificate_date: null,
  thumbnail_url: null,
  thumbnail_srcset: null,
  size: 1000,
  sizes: [{ size: 'original', bytes: 1000, height: null }],
  subtitles: [],
  duration_seconds: null,
  created_at: '2026-11-01T00:00:00.000Z',
  s3_key: `movies/${id}.mp4`,
  is_active: true,
  rating_confirmed: true,
  plan_ids: [],
  download_count: 0,
  taken_down_at: null,
  encryption: { encrypted: 1, files: 1 },
  renditions: [],
  ...overrides,
});

const library = [
  movie('a', { title: 'Sniper Rider', plan_ids: ['p1'] }),
  movie('b', { title: 'Love in Kampala', vj: 'VJ Emmy', plan_ids: ['p1', 'p2'], is_active: false }),
  movie('c', { title: 'The Long Road', category: 'English', vj: 'N/A' }),
  movie('d', { title: 'Kampala Nights', category: 'English', vj: 'VJ Ice P' }),
];

describe('the plan form’s movie chooser', () => {
  it('reads a plan’s movies from each movie’s plans', () => {
    expect([...movieIdsOfPlan(library, 'p1')].sort()).toEqual(['a', 'b']);
    expect(movieIdsOfPlan(library, 'p3').size).toBe(0);
  });

  it('searches title, category and VJ, every word, any case', () => {
    expect(searchMovies(library, '').map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(searchMovies(library, 'kampala').map((m) => m.id)).toEqual(['b', 'd']);
    expect(searchMovies(library, '  english   KAMPALA ').map((m) => m.id)).toEqual(['d']);
    expect(searchMovies(library, 'emmy').map((m) => m.id)).toEqual(['b']);
  });

  it('selects a whole category on top of the selection, whatever the search shows', () => {
    expect([...withCategory(new Set(['c']), library, 'Kinayuganda')].sort()).toEqual(['a', 'b', 'c']);
    expect([...withCategory(new Set(), library, 'English')].sort()).toEqual(['c', 'd']);
  });

  it('compares selections and counts the active movies chosen', () => {
    expect(sameIds(new Set(['a', 'b']), new Set(['b', 'a']))).toBe(true);
    expect(sameIds(new Set(['a']), new Set(['a', 'b']))).toBe(false);
    expect(activeChosen(new Set(['a', 'b']), library)).toBe(1);
    expect(activeChosen(new Set(['b']), library)).toBe(0);
  });

  it('flags an active, visible plan without active movies as unsellable', () => {
    const plan = { is_active: true, is_visible: true, active_movie_count: 0 };
    expect(unsellable(plan)).toBe(true);
    expect(unsellable({ ...plan, active_movie_count: 3 })).toBe(false);
    expect(unsellable({ ...plan, is_visible: false })).toBe(false);
    expect(unsellable({ ...plan, is_active: false })).toBe(false);
  });
});

describe('saleState', () => {
  const plan = { expires_at: '2026-11-27T12:00:00.000Z', sale_ends_at: '2026-11-27T06:00:00.000Z' };

  it('is on sale before the cut-off, closed inside it (saying why), and ended after the end', () => {
    expect(saleState(plan, new Date('2026-11-27T05:59:00Z'))).toEqual({ kind: 'on-sale' });
    expect(saleState(plan, new Date('2026-11-27T06:00:00Z'))).toEqual({
      kind: 'sale-closed',
      text: 'Sale closed (ends in under 6 hours)',
    });
    expect(saleState(plan, new Date('2026-11-27T12:00:00Z'))).toEqual({ kind: 'ended' });
  });
});
