import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { APP_SHELL_FILE, pageFileFor } from '@filamu/shared';
import type { Context, Hono } from 'hono';
import { negotiateCoding, type ContentCoding } from './content-coding.ts';
import type { AppEnv } from './env.ts';
import { isPagePath } from './pwa-pages.ts';
import { loadStaticFiles, type StaticFile } from './static-files.ts';

/** Hashed names change with their content, so browsers may keep them for a year without asking. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (pages, sw.js, the manifest, icons) is revalidated: a 304 when unchanged. */
const REVALIDATE = 'no-cache';

/**
 * Serves the built PWA from memory: each file in the smallest coding the browser accepts (its precompressed
 * br or gzip copy; decisions 0070–0072), hashed assets cached for a year, everything else revalidated by ETag, and any
 * page path answered with its HTML file (its prerendered page, or the app shell; decision 0076).
 */
export function mountPwa(app: Hono<AppEnv>, distDir: string): void {
  if (!existsSync(join(distDir, APP_SHELL_FILE))) return; // No build: API-only runs and tests.
  const files = loadStaticFiles(distDir);

  app.get('*', (c) => {
    const path = decodedPath(c.req.path);
    if (path === null) return c.notFound();
    const file =
      files.get(path.slice(1)) ??
      (isPagePath(path) ? (files.get(pageFileFor(path)) ?? files.get(APP_SHELL_FILE)) : undefined);
    if (!file) return c.notFound();
    return send(c, file, path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
  });
}

function decodedPath(rawPath: string): string | null {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return null;
  }
}

function send(c: Context<AppEnv>, file: StaticFile, cacheControl: string): Response {
  const available = Object.keys(file.codings) as ContentCoding[];
  const coding = negotiateCoding(c.req.header('Accept-Encoding'), available);
  const representation = coding === 'identity' ? file.identity : file.codings[coding]!;

  c.header('Cache-Control', cacheControl);
  c.header('ETag', representation.etag);
  c.header('Last-Modified', file.lastModified);
  // Every answer for a file with compressed copies depends on Accept-Encoding, the identity one too.
  if (available.length > 0) c.header('Vary', 'Accept-Encoding');
  if (isNotModified(c, representation.etag, file.lastModified)) return c.body(null, 304);

  c.header('Content-Type', file.contentType);
  if (coding !== 'identity') c.header('Content-Encoding', coding);
  c.header('Content-Length', String(representation.bytes.length));
  if (c.req.method === 'HEAD') return c.body(null, 200);
  return c.body(representation.bytes, 200);
}

/** RFC 9110 §13.1.2–3: If-None-Match (weak comparison) wins; If-Modified-Since only without it. */
export function isNotModified(c: Context<AppEnv>, etag: string, lastModified: string): boolean {
  const ifNoneMatch = c.req.header('If-None-Match');
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
  }
  const ifModifiedSince = Date.parse(c.req.header('If-Modified-Since') ?? '');
  return !Number.isNaN(ifModifiedSince) && Date.parse(lastModified) <= ifModifiedSince;
}
