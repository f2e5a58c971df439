import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { pageFileFor } from '@filamu/shared';
import type { Hono } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * Serves the built PWA: hashed assets cached for a year, everything else (pages, sw.js, manifest) revalidated,
 * and any other page path answered with its prerendered page or the app shell for the client router.
 */
export function mountPwa(app: Hono<AppEnv>, distDir: string): void {
  if (!existsSync(join(distDir, 'index.html'))) return;
  const pages = new Map<string, Promise<string>>();

  app.use('*', async (c, next) => {
    await next();
    if (c.res.status >= 400 || c.req.path.startsWith('/api/') || c.res.headers.has('Cache-Control')) return;
    c.res.headers.set(
      'Cache-Control',
      c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  });
  app.use('*', serveStatic({ root: distDir }));
  app.get('*', async (c) => {
    const last = c.req.path.split('/').at(-1) ?? '';
    if (last.includes('.')) return c.notFound();
    const file = pageFileFor(c.req.path);
    if (!pages.has(file)) pages.set(file, readFile(join(distDir, file), 'utf8'));
    return c.html(await pages.get(file)!);
  });
}
