import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './env.ts';
import { mountPwa } from './static-app.ts';

function builtPwa(): string {
  const dir = mkdtempSync(join(tmpdir(), 'filamu-pwa-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Filamu</title><div id="root"><h1>Landing</h1></div>');
  writeFileSync(join(dir, 'terms.html'), '<!doctype html><title>Terms</title><div id="root"><h1>Terms</h1></div>');
  writeFileSync(join(dir, 'app.html'), '<!doctype html><title>Filamu</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("install", () => {})');
  return dir;
}

describe('serving the built PWA', () => {
  const app = new Hono<AppEnv>();
  mountPwa(app, builtPwa());

  it('serves the prerendered pages, and the app shell for client-side routes (history fallback), revalidated', async () => {
    const expected: Record<string, string> = {
      '/': '<h1>Landing</h1>',
      '/terms': '<h1>Terms</h1>',
      '/terms/': '<h1>Terms</h1>',
      '/dashboard': '<div id="root"></div>',
      '/movies/123': '<div id="root"></div>',
      '/no/such/page': '<div id="root"></div>',
    };
    for (const [path, body] of Object.entries(expected)) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text(), path).toContain(body);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and keeps the service worker revalidated', async () => {
    const asset = await app.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sw = await app.request('/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing file with 404 rather than the app', async () => {
    const missing = await app.request('/assets/missing.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control') ?? '').not.toContain('immutable');
  });
});
