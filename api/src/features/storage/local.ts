import { open } from 'node:fs/promises';
import type { Hono } from 'hono';
import { trimTrailingSlashes } from '@filamu/shared';
import type { AppEnv } from '../../http/env.ts';
import { conflict } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileTraffic } from '../metrics/registry.ts';
import { createFileServer } from './local-files.ts';
import { listLocalObjects, removeAbandonedLocalUploads } from './local-debris.ts';
import { createLocalMultipart } from './local-multipart.ts';
import {
  infoOf,
  ObjectExistsError,
  objectPath,
  removeQuietly,
  moveFileInto,
  statObject,
  writeObject,
} from './local-objects.ts';
import { expiryFrom, signedQuery } from './local-signing.ts';
import { type FileGrants, isPublicKey, type ObjectInfo, type ObjectStorage, type PresignedUpload } from './storage.ts';

/** Where the app mounts the local driver's file server; links are `/files/<key>?…` (made absolute by the API). */
export const FILES_MOUNT = '/files';

export interface LocalStorageOptions {
  /** Objects live at `dir/<key>`, uploads in progress in `dir/.uploads/`, multipart parts in `dir/.multipart/`. */
  dir: string;
  /** HMAC-SHA256 key of the signed links (≥ 256 bits of randomness). */
  secret: string;
  clock: Clock;
  /** When set, thumbnails are linked there instead of /files (the CDN pulls from us or from a copy). */
  cdnBaseUrl: string | null;
  corsOrigins: string[];
  traffic?: FileTraffic;
  /** Checks the download grant behind each signed link and hears what was delivered under it (the app's). */
  grants?: FileGrants;
}

/**
 * The default driver: a folder on the server, served by `/files` with HMAC-signed links (and public thumbnails).
 * Big movies go up in parts (local-multipart.ts) so a dropped connection on office Wi-Fi costs one part.
 */
export function createLocalStorage(options: LocalStorageOptions): { storage: ObjectStorage; fileServer: Hono<AppEnv> } {
  const { dir, secret, clock } = options;
  if (secret.length === 0) throw new Error('the local storage driver needs a signing secret');
  const cdnBaseUrl = options.cdnBaseUrl ? trimTrailingSlashes(options.cdnBaseUrl) : null;

  const pathOf = (key: string): string => {
    const path = objectPath(dir, key);
    if (!path) throw new RangeError(`not a storage key: ${JSON.stringify(key)}`);
    return path;
  };
  const linkTo = (key: string, query: string) => `${FILES_MOUNT}/${key}?${query}`;

  const storage: ObjectStorage = {
    driver: 'local',

    async presignGet(key, { expiresInSeconds, downloadName, grant, holder }) {
      pathOf(key);
      const query = signedQuery(secret, {
        method: 'GET',
        key,
        expires: expiryFrom(clock.now(), expiresInSeconds),
        grant: grant ?? null,
        downloadName: downloadName ?? null,
        contentType: null,
        maxBytes: null,
        ...(holder !== undefined ? { holder } : {}),
      });
      return linkTo(key, query);
    },

    async presignPut(key, { contentType, maxBytes, expiresInSeconds }): Promise<PresignedUpload> {
      pathOf(key);
      if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
        throw new RangeError(`upload size must be a whole number of bytes, got ${maxBytes}`);
      }
      const query = signedQuery(secret, {
        method: 'PUT',
        key,
        expires: expiryFrom(clock.now(), expiresInSeconds),
        grant: null,
        downloadName: null,
        contentType,
        maxBytes,
      });
      // Content-Length is not among the headers: browsers set it from the body and refuse to let scripts do it.
      return { url: linkTo(key, query), method: 'PUT', headers: { 'Content-Type': contentType } };
    },

    async head(key): Promise<ObjectInfo | null> {
      // Not a server key: there can be no object under it (callers pass keys that came from clients).
      const path = objectPath(dir, key);
      const stats = path ? await statObject(path) : null;
      return stats ? infoOf(key, stats) : null;
    },

    async readStart(key, length) {
      const handle = await open(pathOf(key), 'r');
      try {
        const buffer = Buffer.alloc(Math.max(0, length));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
      } finally {
        await handle.close();
      }
    },

    // The type always follows from the key's extension (contentTypeOfKey), so there is nothing to store.
    async put(key, body) {
      try {
        await writeObject(dir, key, body);
      } catch (error) {
        if (error instanceof ObjectExistsError) throw conflict('A file already exists under this key.');
        throw error;
      }
    },

    async delete(key) {
      await removeQuietly(pathOf(key));
    },

    list: (folder) => listLocalObjects(dir, folder),

    moveFileIn: (key, path) => moveFileInto(dir, key, path),

    // ffmpeg reads the file itself: no link, no HTTP in between.
    transcodeInput: async (key) => pathOf(key),

    removeAbandonedUploads: (cutoffs) => removeAbandonedLocalUploads(dir, cutoffs),

    publicUrl(key) {
      // Movies never get a public URL: they are only reachable through a signed link tied to a grant (R22).
      if (!isPublicKey(key)) return null;
      return cdnBaseUrl ? `${cdnBaseUrl}/${key}` : `${FILES_MOUNT}/${key}`;
    },

    localPath: (key) => objectPath(dir, key),

    multipart: createLocalMultipart({ dir, secret, clock, linkTo }),
  };

  return {
    storage,
    fileServer: createFileServer({
      dir,
      secret,
      clock,
      corsOrigins: options.corsOrigins,
      traffic: options.traffic,
      grants: options.grants,
    }),
  };
}
