import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { validExpiry } from './s3-client.ts';
import { isNotFound, s3Call, wrapS3Error } from './s3-errors.ts';
import type { MultipartStorage } from './storage.ts';

/** S3 numbers parts 1…10 000. */
const MAX_PART_NUMBER = 10_000;

/**
 * Multipart uploads for large movies: the browser PUTs each part to its own presigned URL (and can
 * retry one part after a dropped connection), then the API completes the upload with the parts' ETags.
 */
export function createS3Multipart(client: S3Client, bucket: string): MultipartStorage {
  return {
    async create(key, contentType) {
      const answer = await s3Call('create multipart upload', key, () =>
        client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType })),
      );
      if (!answer.UploadId) throw wrapS3Error('create multipart upload', key, new Error('no UploadId in the answer'));
      return answer.UploadId;
    },

    async presignPart(key, uploadId, partNumber, expiresInSeconds) {
      assertPartNumber(partNumber);
      const expiresIn = validExpiry(expiresInSeconds);
      // No Content-Length is signed: the browser decides how to slice the file, and S3 itself enforces
      // the part rules (≥ 5 MiB except the last) when the upload is completed.
      const command = new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber });
      return s3Call('presign upload part', key, () => getSignedUrl(client, command, { expiresIn }));
    },

    async complete(key, uploadId, parts) {
      if (parts.length === 0) throw new RangeError('a multipart upload needs at least one part');
      for (const part of parts) assertPartNumber(part.partNumber);
      // S3 requires ascending part numbers; the browser reports parts in whatever order they finished.
      const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      await s3Call('complete multipart upload', key, () =>
        client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: sorted.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
          }),
        ),
      );
    },

    async abort(key, uploadId) {
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
      } catch (error) {
        // Already completed, aborted or expired: nothing is left to discard, which is what abort wants.
        if (isNotFound(error)) return;
        throw wrapS3Error('abort multipart upload', key, error);
      }
    },
  };
}

function assertPartNumber(partNumber: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new RangeError(`part number must be 1…${MAX_PART_NUMBER}, got ${partNumber}`);
  }
}
