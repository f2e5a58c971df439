/**
 * The same-origin address the service worker answers with a decrypted film (decision 0232): `/play/` and the film's
 * download record key, URL-encoded. The page points `<video>` at it; nothing else is ever served there.
 */
export const PLAY_PREFIX = '/play/';

/** A record key is `user:<uuid>:<uuid>` (or `agent:…`): well under this. */
const MAX_KEY_LENGTH = 200;

export function playAddress(recordKey: string): string {
  return `${PLAY_PREFIX}${encodeURIComponent(recordKey)}`;
}

/** The record key a play address names, or null when the path is not one. */
export function recordKeyOfPlayPath(pathname: string): string | null {
  if (!pathname.startsWith(PLAY_PREFIX)) return null;
  const encoded = pathname.slice(PLAY_PREFIX.length);
  if (encoded.length === 0 || encoded.length > MAX_KEY_LENGTH * 3 || encoded.includes('/')) return null;
  try {
    const key = decodeURIComponent(encoded);
    return key.length <= MAX_KEY_LENGTH ? key : null;
  } catch {
    return null;
  }
}
