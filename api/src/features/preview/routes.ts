import { PREVIEW_PATH } from '@filamu/shared';
import type { Hono } from 'hono';
import type { Deps } from '../../deps.ts';
import { negotiateCoding } from '../../http/content-coding.ts';
import type { AppEnv } from '../../http/env.ts';
import { isNotModified } from '../../http/static-app.ts';
import { createPreview, PREVIEW_TTL_MS } from './preview.ts';

/**
 * Browsers and shared caches may reuse the page for as long as the server does, then revalidate it by ETag. It is
 * the same for everyone (no cookie, no session is read), so `public`.
 */
const CACHE_CONTROL = `public, max-age=${PREVIEW_TTL_MS / 1000}`;
const ETAG_SUFFIX = { identity: '', br: '-br', gzip: '-gz' } as const;

/**
 * `GET /browse`: the public preview of the library (docs/decisions/0215), server-rendered HTML with no script.
 * Mounted before the PWA, outside `/api`. Any query string is ignored: there is one page.
 */
export function mountPreview(app: Hono<AppEnv>, deps: Deps): void {
  const preview = createPreview(deps);
  // With or without a trailing slash, like the app's own pages.
  app.on(['GET', 'HEAD'], [PREVIEW_PATH, `${PREVIEW_PATH}/`], async (c) => {
    const page = await preview.page();
    const coding = negotiateCoding(c.req.header('Accept-Encoding'));
    const etag = `"${page.tag}${ETAG_SUFFIX[coding]}"`;
    c.header('Cache-Control', CACHE_CONTROL);
    c.header('ETag', etag);
    c.header('Last-Modified', page.lastModified);
    c.header('Vary', 'Accept-Encoding');
    if (isNotModified(c, etag, page.lastModified)) return c.body(null, 304);
    const bytes = page[coding];
    c.header('Content-Type', 'text/html; charset=utf-8');
    if (coding !== 'identity') c.header('Content-Encoding', coding);
    c.header('Content-Length', String(bytes.length));
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(bytes), 200);
  });
}
