import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Config } from '../../config.ts';

/** SigV4 presigned URLs cannot live longer than a week (AWS rejects X-Amz-Expires > 604800). */
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

export function createS3Client(config: S3Config): S3Client {
  const clientConfig: S3ClientConfig = {
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    // Since 3.729 the SDK adds CRC32 checksums to every upload it can. In a presigned URL that becomes
    // `x-amz-checksum-crc32` of an *empty* body (or a header the browser never sends), so the browser's
    // PUT would be rejected; and S3-compatible stores (s3rver, older MinIO) do not return checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (config.endpoint !== null) clientConfig.endpoint = config.endpoint;
  // Without explicit keys the SDK's default chain applies (env, shared config, IMDS/ECS role…).
  if (config.credentials !== null) clientConfig.credentials = config.credentials;
  return new S3Client(clientConfig);
}

/** Expiry in whole seconds within SigV4's bounds; anything else is a programming error, not an S3 one. */
export function validExpiry(expiresInSeconds: number): number {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
    throw new RangeError(
      `presigned URL lifetime must be 1…${MAX_PRESIGN_SECONDS} whole seconds, got ${expiresInSeconds}`,
    );
  }
  return expiresInSeconds;
}
