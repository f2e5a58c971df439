import { describe, expect, it } from 'vitest';
import { libraryHref, parseCategory, parseRefine, parseSearch } from './library-url.ts';

describe('library URL', () => {
  it('reads ?category= in any case and ignores unknown values', () => {
    expect(parseCategory('kinayuganda')).toBe('Kinayuganda');
    expect(parseCategory('ENGLISH')).toBe('English');
    expect(parseCategory(' English ')).toBe('English');
    expect(parseCategory('french')).toBeNull();
    expect(parseCategory('')).toBeNull();
    expect(parseCategory(null)).toBeNull();
  });

  it('trims the search and caps it at the API limit', () => {
    expect(parseSearch('  love  ')).toBe('love');
    expect(parseSearch(null)).toBe('');
    expect(parseSearch('x'.repeat(150))).toHaveLength(100);
  });

  it('builds links that keep the search and the section', () => {
    expect(libraryHref('', null)).toBe('/movies');
    expect(libraryHref('love & war', null)).toBe('/movies?search=love+%26+war');
    expect(libraryHref('', 'Kinayuganda')).toBe('/movies?category=kinayuganda');
    expect(libraryHref('kid', 'English')).toBe('/movies?search=kid&category=english');
  });

  it('keeps rating, VJ and order in the URL, ignoring unknown values', () => {
    expect(parseRefine(new URLSearchParams('rating=18&vj=%20VJ%20Emmy%20&sort=popular'))).toEqual({
      rating: '18',
      vj: 'VJ Emmy',
      sort: 'popular',
    });
    expect(parseRefine(new URLSearchParams('rating=21&sort=title'))).toEqual({ rating: null, vj: null, sort: null });
    expect(libraryHref('kampla', null, { rating: 'pg', vj: 'VJ Ice P', sort: 'popular' })).toBe(
      '/movies?search=kampla&rating=pg&vj=VJ+Ice+P&sort=popular',
    );
  });
});
