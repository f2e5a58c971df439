import {
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { isNotFound, s3Call, wrapS3Error } from './s3-errors.ts';
import {
  type AbandonedUploadCutoffs,
  type AbandonedUploads,
  type StoredFolder,
  isServerKey,
  type StoredObject,
} from './storage.ts';

/**
 * Listing and abandoned multipart uploads on S3, for the storage cleanup job (decision 0083). Only keys with the
 * server's shape are listed or aborted: a bucket shared with anything else keeps everything else.
 */

export async function listS3Objects(client: S3Client, bucket: string, folder: StoredFolder): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await s3Call('list objects', `${folder}/`, () =>
      client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${folder}/`, ContinuationToken: token })),
    );
    for (const item of page.Contents ?? []) {
      if (!item.Key || !isServerKey(item.Key, folder) || !item.LastModified) continue;
      objects.push({ key: item.Key, size: item.Size ?? 0, lastModified: item.LastModified });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

export interface S3Upload {
  key: string;
  uploadId: string;
  initiated: Date;
}

/** Every multipart upload in progress under a server key (ListMultipartUploads, page by page). */
export async function listS3Uploads(client: S3Client, bucket: string): Promise<S3Upload[]> {
  const uploads: S3Upload[] = [];
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    const page = await s3Call('list multipart uploads', null, () =>
      client.send(
        new ListMultipartUploadsCommand({ Bucket: bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      ),
    );
    for (const item of page.Uploads ?? []) {
      if (!item.Key || !item.UploadId || !item.Initiated || !isServerKey(item.Key)) continue;
      uploads.push({ key: item.Key, uploadId: item.UploadId, initiated: item.Initiated });
    }
    if (!page.IsTruncated) return uploads;
    // A truncated page without markers would list the first page forever.
    if (!page.NextKeyMarker) throw wrapS3Error('list multipart uploads', null, new Error('truncated without a marker'));
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}

/**
 * Aborts uploads initiated before the cutoff. S3 counts only from initiation (it keeps no "last part" time), the
 * same clock as the bucket's AbortIncompleteMultipartUpload lifecycle rule this backs up.
 */
export async function removeAbandonedS3Uploads(
  client: S3Client,
  bucket: string,
  cutoffs: AbandonedUploadCutoffs,
): Promise<AbandonedUploads> {
  const multipartUploads = { count: 0, bytes: 0 };
  for (const upload of await listS3Uploads(client, bucket)) {
    if (upload.initiated.getTime() >= cutoffs.multipartBefore.getTime()) continue;
    try {
      await client.send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.key, UploadId: upload.uploadId }),
      );
    } catch (error) {
      // Completed or aborted since the listing: nothing left to discard.
      if (isNotFound(error)) continue;
      throw wrapS3Error('abort multipart upload', upload.key, error);
    }
    multipartUploads.count += 1;
  }
  return { tempFiles: { count: 0, bytes: 0 }, multipartUploads };
}
