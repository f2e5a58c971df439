import type { Context } from 'hono';
import { trimTrailingSlashes } from '@filamu/shared';
import type { Config } from '../config.ts';
import type { AppEnv } from './env.ts';

/** The origin clients reach us at: PUBLIC_URL when configured, otherwise the request's own. */
export function publicOrigin(c: Context<AppEnv>, config: Pick<Config, 'publicUrl'>): string {
  return trimTrailingSlashes(config.publicUrl ?? new URL(c.req.url).origin);
}

/** Storage links are root-relative for the local driver and absolute for S3/CDN; clients always get absolute ones. */
export function absoluteUrl(url: string, origin: string): string {
  return new URL(url, `${origin}/`).toString();
}
