import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { trimTrailingSlashes } from '@filamu/shared';
import type { S3Config } from '../../config.ts';
import { createS3Client, validExpiry } from './s3-client.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { isInvalidRange, isNotFound, s3Call, wrapS3Error } from './s3-errors.ts';
import { listS3Objects, removeAbandonedS3Uploads } from './s3-debris.ts';
import { createS3Multipart } from './s3-multipart.ts';
import type { ObjectInfo, ObjectStorage, PresignedUpload } from './storage.ts';

/**
 * Headers a presigned PUT binds into its signature. The presigner marks content-type unsignable by
 * default (so any type could be uploaded); listing it here overrides that. content-length is signed
 * whenever the request carries it, and naming it makes the intent explicit: S3 then refuses a body
 * of any other size with `SignatureDoesNotMatch`.
 */
const SIGNED_UPLOAD_HEADERS = new Set(['content-type', 'content-length']);

/** Presigned S3 URLs for downloads and uploads, so bytes never pass through the API server. */
export function createS3Storage(config: S3Config, options: { cdnBaseUrl: string | null }): ObjectStorage {
  const client = createS3Client(config);
  const bucket = config.bucket;
  const cdnBaseUrl = options.cdnBaseUrl ? trimTrailingSlashes(options.cdnBaseUrl) : null;

  return {
    driver: 's3',

    async presignGet(key, { expiresInSeconds, downloadName }) {
      // Deliberately no `Range`: a range signed into the URL makes every other range fail with
      // SignatureDoesNotMatch (aws-sdk-js-v3#4823). Clients send Range as an ordinary header.
      const expiresIn = validExpiry(expiresInSeconds);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(downloadName ? { ResponseContentDisposition: attachmentDisposition(downloadName) } : {}),
      });
      return s3Call('presign GET', key, () => getSignedUrl(client, command, { expiresIn }));
    },

    async presignPut(key, { contentType, maxBytes, expiresInSeconds }): Promise<PresignedUpload> {
      // A presigned PUT cannot express "at most n bytes" (only a POST policy can), so the exact length
      // is signed: callers pass the size the uploader declared, already checked against the maximum.
      if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
        throw new RangeError(`upload size must be a whole number of bytes, got ${maxBytes}`);
      }
      const expiresIn = validExpiry(expiresInSeconds);
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: maxBytes,
      });
      const url = await s3Call('presign PUT', key, () =>
        getSignedUrl(client, command, { expiresIn, signableHeaders: SIGNED_UPLOAD_HEADERS }),
      );
      // Content-Length is not listed: browsers set it from the body and refuse to let scripts set it.
      return { url, method: 'PUT', headers: { 'Content-Type': contentType } };
    },

    async head(key): Promise<ObjectInfo | null> {
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        if (answer.ContentLength === undefined || answer.ETag === undefined || answer.LastModified === undefined) {
          throw new Error('response lacks Content-Length, ETag or Last-Modified');
        }
        return {
          size: answer.ContentLength,
          etag: answer.ETag,
          lastModified: answer.LastModified,
          contentType: answer.ContentType ?? null,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw wrapS3Error('HEAD', key, error);
      }
    },

    async readStart(key, length) {
      const wanted = Math.floor(length);
      if (!(wanted > 0)) return new Uint8Array(0);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${wanted - 1}` }),
        );
        if (!answer.Body) return new Uint8Array(0);
        const bytes = await answer.Body.transformToByteArray();
        // A server that ignores Range answers 200 with the whole object; never hand back more than asked.
        return bytes.length > wanted ? bytes.subarray(0, wanted) : bytes;
      } catch (error) {
        // S3 answers 416 to any range over an empty object.
        if (isInvalidRange(error)) return new Uint8Array(0);
        throw wrapS3Error('GET (start)', key, error);
      }
    },

    async put(key, body, contentType) {
      await s3Call('PUT', key, () =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentType: contentType,
            ContentLength: body.byteLength,
          }),
        ),
      );
    },

    async delete(key) {
      try {
        // S3 answers 204 for a missing key; some compatible stores say 404 — both mean "gone".
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (isNotFound(error)) return;
        throw wrapS3Error('DELETE', key, error);
      }
    },

    list: (folder) => listS3Objects(client, bucket, folder),

    // One PUT (up to 5 GB, far above a rendition's cap): S3 shows the object only once all of it arrived.
    async moveFileIn(key, path, contentType) {
      const { size } = await stat(path);
      await s3Call('PUT', key, () =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: createReadStream(path),
            ContentType: contentType,
            ContentLength: size,
          }),
        ),
      );
      await rm(path, { force: true });
    },

    // ffmpeg reads over HTTP with range requests; the link outlives the longest encode it is made for.
    async transcodeInput(key, expiresInSeconds) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn: validExpiry(expiresInSeconds),
      });
    },

    removeAbandonedUploads: (cutoffs) => removeAbandonedS3Uploads(client, bucket, cutoffs),

    publicUrl(key) {
      return cdnBaseUrl === null ? null : `${cdnBaseUrl}/${key}`;
    },

    localPath: () => null,

    multipart: createS3Multipart(client, bucket),
  };
}
