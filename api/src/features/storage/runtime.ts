import type { Hono } from 'hono';
import type { StorageConfig } from '../../config.ts';
import type { AppEnv } from '../../http/env.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileTraffic } from '../metrics/registry.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import type { FileGrants, ObjectStorage } from './storage.ts';

/** The configured object storage and, for the local driver, the `/files` server the app mounts. */
export interface StorageRuntime {
  storage: ObjectStorage;
  /** Local driver only: serves signed `/files/*` URLs (and public thumbnails); null with S3. */
  fileServer: Hono<AppEnv> | null;
}

/** The driver the configuration names: S3 when S3_BUCKET is set, otherwise the local folder. */
export function configuredStorage(
  config: StorageConfig,
  parts: {
    clock: Clock;
    corsOrigins: string[];
    /** HMAC key of local /files URLs. */
    signingSecret: string;
    /** Bytes served and stored by the local /files server (metrics). */
    traffic?: FileTraffic;
    /** The download grants behind local /files links (checked per request, deliveries counted). */
    grants?: FileGrants;
  },
): StorageRuntime {
  if (config.driver === 's3') {
    return { storage: createS3Storage(config.s3!, { cdnBaseUrl: config.cdnBaseUrl }), fileServer: null };
  }
  const local = createLocalStorage({
    dir: config.localDir,
    secret: parts.signingSecret,
    clock: parts.clock,
    cdnBaseUrl: config.cdnBaseUrl,
    corsOrigins: parts.corsOrigins,
    traffic: parts.traffic,
    grants: parts.grants,
  });
  return { storage: local.storage, fileServer: local.fileServer };
}
