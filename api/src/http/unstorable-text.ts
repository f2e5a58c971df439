import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { AppError } from './errors.ts';

/**
 * Text Postgres cannot store is refused at the edge, once, before any route reads it (decision 0090). Postgres
 * rejects U+0000 in text and jsonb ("invalid byte sequence for encoding UTF8: 0x00"), which surfaced as a 500 from
 * whichever query met it first. A lone UTF-16 surrogate does not fail: the drivers encode it as U+FFFD, so the row
 * silently differs from what was sent; it is refused too. The path and query are checked for every request; bodies
 * only under /api, and only JSON and urlencoded forms (files and other binary bodies are never read here).
 */
const NUL_IN_URL = /%00|\0/i;

export const refuseUnstorableUrl: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = c.req.url;
  const pathAndQuery = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  if (NUL_IN_URL.test(pathAndQuery)) {
    throw new AppError('bad_request', 'The address cannot contain a NUL character (%00).');
  }
  await next();
};

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
const FORM_TYPE = 'application/x-www-form-urlencoded';

export const refuseUnstorableBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (c.req.raw.body && (JSON_TYPE.test(mediaType) || mediaType === FORM_TYPE)) {
    // Hono caches the text: the validator's c.req.json() parses this same read, the body is not consumed twice.
    const text = await c.req.text();
    let value: unknown;
    if (mediaType === FORM_TYPE) value = Object.fromEntries(new URLSearchParams(text));
    else {
      try {
        value = JSON.parse(text);
      } catch {
        // Malformed JSON is the validator's to refuse, with its own message.
      }
    }
    const problem = findUnstorable(value);
    if (problem) {
      const message = `${problem.path ? `${problem.path}: ` : ''}${problem.message}`;
      throw new AppError('validation_error', message, { issues: [problem] });
    }
  }
  await next();
};

interface Visit {
  value: unknown;
  key: string;
  parent?: Visit;
}

/** The first string (value or key) Postgres cannot store faithfully; no recursion, so any depth is fine. */
function findUnstorable(root: unknown): { path: string; message: string } | undefined {
  const stack: Visit[] = [{ value: root, key: '' }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (typeof visit.value === 'string') {
      const message = unstorable(visit.value);
      if (message) return { path: pathOf(visit), message };
    } else if (visit.value !== null && typeof visit.value === 'object') {
      for (const [key, value] of Object.entries(visit.value)) {
        const child = { value, key, parent: visit };
        const message = unstorable(key);
        if (message) return { path: pathOf(child), message: `Field names: ${message}` };
        stack.push(child);
      }
    }
  }
  return undefined;
}

/** The dotted path of a visit, as zod's issues spell it; short, and without the characters it is refused for. */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.unshift(at.key);
  const path = keys
    .join('.')
    .replace(/\0/g, '\\0')
    .replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
  return path.length > 100 ? `${path.slice(0, 100)}…` : path;
}

/** In unicode mode a surrogate range matches only unpaired halves: a pair is one code point above U+FFFF. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function unstorable(text: string): string | undefined {
  if (text.includes('\0')) return 'Text cannot contain a NUL character (\\u0000).';
  if (LONE_SURROGATE.test(text)) return 'Text must be valid Unicode (it contains a lone surrogate).';
  return undefined;
}
