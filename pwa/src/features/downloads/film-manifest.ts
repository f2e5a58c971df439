import { contracts, type SigningKeyResponse } from '@filamu/shared';
import { api } from '../../lib/api.ts';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';
import type { LocalDownload } from './engine/record.ts';
import { dispatch } from './engine/store.ts';

/**
 * What a film needs to travel to another phone (decision 0243): its signed manifest, kept with it when its download
 * finished; and the server's public key, kept on the phone so a film file received with no data is checked too.
 */

export const NEEDS_A_CONNECTION =
  'Connect to the internet once so Filamu can prepare this film for sending. It takes a few KB of data.';

/** The film's manifest: kept with it, or asked for now and kept; null when it cannot be had (no connection). */
export async function manifestFor(record: LocalDownload): Promise<string | null> {
  if (record.manifest) return record.manifest;
  const size = record.fileKind ?? record.sizeChoice;
  if (!size || !record.fileNonce) return null;
  try {
    const { manifest } = await api(
      contracts.filmFiles.filmManifest,
      { params: { id: record.movieId }, query: { size, nonce: record.fileNonce } },
      { redirectOn401: false },
    );
    await dispatch(record.key, { type: 'manifest', manifest, fileNonce: record.fileNonce });
    return manifest;
  } catch {
    return null;
  }
}

/** The key that signs manifests: asked for when online (and kept), else the one kept; null on a phone that never had it. */
export async function signingKey(): Promise<JsonWebKey | null> {
  try {
    const { jwk } = await api(contracts.filmFiles.signingKey, {}, { redirectOn401: false });
    localStorage.setItem(STORAGE_KEYS.signingKey, JSON.stringify(jwk));
    return jwk;
  } catch {
    try {
      const kept = localStorage.getItem(STORAGE_KEYS.signingKey);
      return kept ? (JSON.parse(kept) as SigningKeyResponse['jwk']) : null;
    } catch {
      return null;
    }
  }
}
