import { describe, expect, it } from 'vitest';
import { APP_SHELL_FILE, pageFileFor } from './web-shell.ts';

describe('pageFileFor', () => {
  it('answers the prerendered pages with their own file, with or without a trailing slash', () => {
    expect(pageFileFor('/')).toBe('index.html');
    expect(pageFileFor('/terms')).toBe('terms.html');
    expect(pageFileFor('/terms/')).toBe('terms.html');
    expect(pageFileFor('/contact-us')).toBe('contact-us.html');
  });

  it('answers every other page path with the app shell', () => {
    for (const path of ['/login', '/movies/123', '/admin/plans', '/terms/extra', '/no/such/page']) {
      expect(pageFileFor(path), path).toBe(APP_SHELL_FILE);
    }
  });
});
