import { describe, expect, it } from 'vitest';
import { isPagePath } from './pwa-pages.ts';

describe('pwa pages', () => {
  it('tells page paths from file paths by the last segment', () => {
    expect(isPagePath('/')).toBe(true);
    expect(isPagePath('/movies/123')).toBe(true);
    expect(isPagePath('/terms/')).toBe(true);
    expect(isPagePath('/assets/index-abc.js')).toBe(false);
    expect(isPagePath('/manifest.webmanifest')).toBe(false);
  });
});
