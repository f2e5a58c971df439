import type { Deps } from '../../deps.ts';
import { absoluteUrl } from '../../http/origin.ts';

/**
 * A thumbnail's URL as clients use it as is (SPEC §2 Admin Movies): the CDN or the local public path
 * when there is one, otherwise a signed link (S3 without a CDN); null when the movie has none.
 */
export async function thumbnailUrl(
  deps: Pick<Deps, 'storage' | 'config'>,
  key: string | null,
  origin: string,
): Promise<string | null> {
  if (!key) return null;
  const url =
    deps.storage.publicUrl(key) ??
    (await deps.storage.presignGet(key, { expiresInSeconds: deps.config.storage.downloadUrlTtlSeconds }));
  return absoluteUrl(url, origin);
}
