// One-shot bucket set-up for deploy/compose.yaml (and a record of what a production bucket needs): create the
// bucket, its CORS rule, a lifecycle rule aborting multipart uploads left unfinished for a day, and public
// read of thumbnails/ and posters/ (the CDN's origin). A store that lacks one of these APIs (MinIO: per-bucket CORS and
// AbortIncompleteMultipartUpload) is reported and skipped; compose.yaml configures MinIO's equivalents.
// Runs with the server's own dependencies: node deploy/s3-init.mjs (in the image or in the repository).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../api/package.json', import.meta.url));
const s3 = require('@aws-sdk/client-s3');

const env = process.env;
const bucket = env.S3_BUCKET;
if (!bucket) throw new Error('S3_BUCKET is required');
const origins = (env.CORS_ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);

const client = new s3.S3Client({
  region: env.S3_REGION ?? 'us-east-1',
  endpoint: env.S3_ENDPOINT || undefined,
  forcePathStyle: Boolean(env.S3_ENDPOINT),
  credentials:
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : undefined,
});

/** Runs one step; "not implemented" by this store is a note, anything else fails the set-up. */
async function step(what, command) {
  try {
    await client.send(command);
    console.log(`ok    ${what}`);
  } catch (error) {
    const code = error?.name ?? error?.Code ?? 'Error';
    if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') {
      console.log(`ok    ${what} (already there)`);
    } else if (code === 'NotImplemented' || error?.$metadata?.httpStatusCode === 501) {
      console.log(`skip  ${what}: not supported by this store (${code})`);
    } else {
      throw new Error(`${what} failed: ${code}: ${error?.message ?? error}`, { cause: error });
    }
  }
}

await step(`bucket ${bucket}`, new s3.CreateBucketCommand({ Bucket: bucket }));
if (origins.length > 0) {
  await step(
    `CORS for ${origins.join(', ')}`,
    new s3.PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedOrigins: origins,
            AllowedMethods: ['GET', 'HEAD', 'PUT'],
            AllowedHeaders: ['Range', 'If-Range', 'Content-Type'],
            ExposeHeaders: ['ETag', 'Content-Range', 'Accept-Ranges', 'Content-Length'],
            MaxAgeSeconds: 3600,
          },
        ],
      },
    }),
  );
}
await step(
  'lifecycle: abort incomplete multipart uploads after 1 day',
  new s3.PutBucketLifecycleConfigurationCommand({
    Bucket: bucket,
    LifecycleConfiguration: {
      Rules: [
        {
          ID: 'abort-incomplete-multipart-uploads',
          Status: 'Enabled',
          Filter: { Prefix: '' },
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        },
      ],
    },
  }),
);
await step(
  'public read of thumbnails/ and posters/',
  new s3.PutBucketPolicyCommand({
    Bucket: bucket,
    Policy: JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: ['*'] },
          Action: ['s3:GetObject'],
          Resource: [`arn:aws:s3:::${bucket}/thumbnails/*`, `arn:aws:s3:::${bucket}/posters/*`],
        },
      ],
    }),
  }),
);
