import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * A JSON answer the browser keeps and revalidates (docs/decisions/0066-library-etags.md): its ETag is a hash of
 * the exact body, so it changes whenever anything the caller sees changes, and an `If-None-Match` naming it gets
 * `304 Not Modified` with no body. `private, no-cache`: only the caller's browser stores it, and it always asks
 * first. Weak (`W/`), so it still matches after a proxy or our compression re-encodes the body.
 */
export function revalidatedJson(c: Context<AppEnv>, body: unknown): Response {
  const text = JSON.stringify(body);
  const etag = `W/"${createHash('sha256').update(text).digest('base64url')}"`;
  c.header('ETag', etag);
  c.header('Cache-Control', 'private, no-cache');
  // The answer depends on who asks: a browser never reuses one person's answer for another's token.
  c.header('Vary', 'Authorization', { append: true });
  if (matchesAny(c.req.header('if-none-match'), etag)) return c.body(null, 304);
  return c.body(text, 200, { 'Content-Type': 'application/json' });
}

/** RFC 9110 §13.1.2: `*` or a list of entity tags, compared weakly (the `W/` prefix ignored). */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
