import { describe, expect, it } from 'vitest';
import { isPagePath, pageFileFor, SPA_SHELL } from './pwa-pages.ts';

describe('pwa pages', () => {
  it('answers every page path with the SPA shell until pages have files of their own', () => {
    for (const path of ['/', '/login', '/movies/123', '/terms/', '/admin/plans']) {
      expect(pageFileFor(path), path).toBe(SPA_SHELL);
    }
  });

  it('tells page paths from file paths by the last segment', () => {
    expect(isPagePath('/')).toBe(true);
    expect(isPagePath('/movies/123')).toBe(true);
    expect(isPagePath('/terms/')).toBe(true);
    expect(isPagePath('/assets/index-abc.js')).toBe(false);
    expect(isPagePath('/manifest.webmanifest')).toBe(false);
  });
});
