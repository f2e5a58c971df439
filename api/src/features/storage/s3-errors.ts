/**
 * SDK errors turned into plain `Error`s that say which operation on which key failed and what S3
 * answered, without the SDK error object itself: it carries the raw HTTP response and every field of
 * S3's error document (a `SignatureDoesNotMatch` includes the access key id and the canonical request,
 * which holds the session token when credentials are temporary), so logging it could leak them.
 */

/** What S3 (or the SDK) said, reduced to fields that are safe to log. */
interface S3ErrorFacts {
  code: string;
  httpStatus: number | null;
  message: string;
}

export class S3StorageError extends Error {
  override readonly name = 'S3StorageError';

  constructor(
    readonly operation: string,
    readonly key: string | null,
    /** S3's error code (`NoSuchKey`, `AccessDenied`, …) or the SDK's error name. */
    readonly code: string,
    readonly httpStatus: number | null,
    s3Message: string,
  ) {
    const where = key === null ? operation : `${operation} ${key}`;
    const status = httpStatus === null ? '' : ` (HTTP ${httpStatus})`;
    super(`S3 ${where} failed: ${code}${status}${s3Message ? `: ${s3Message}` : ''}`);
  }
}

function factsOf(error: unknown): S3ErrorFacts {
  if (error instanceof Error) {
    const metadata = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata;
    const httpStatus = typeof metadata?.httpStatusCode === 'number' ? metadata.httpStatusCode : null;
    return { code: error.name, httpStatus, message: error.message };
  }
  // The signer rejects with bare strings (e.g. an expiry over a week); keep the text, it has no secrets.
  return { code: 'Error', httpStatus: null, message: typeof error === 'string' ? error : 'unknown error' };
}

/** Whether the SDK error means "no such object / upload" (HEAD answers have no body, hence the bare 404). */
export function isNotFound(error: unknown): boolean {
  const { code, httpStatus } = factsOf(error);
  return httpStatus === 404 || code === 'NotFound' || code === 'NoSuchKey' || code === 'NoSuchUpload';
}

export function isInvalidRange(error: unknown): boolean {
  const { code, httpStatus } = factsOf(error);
  return httpStatus === 416 || code === 'InvalidRange';
}

export function wrapS3Error(operation: string, key: string | null, error: unknown): S3StorageError {
  const { code, httpStatus, message } = factsOf(error);
  // SDK messages for unmodelled errors are sometimes just the code again ("UnknownError") — drop the echo.
  return new S3StorageError(operation, key, code, httpStatus, message === code ? '' : message);
}

/** Runs one SDK call and rethrows any failure as an `S3StorageError`. */
export async function s3Call<T>(operation: string, key: string | null, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw wrapS3Error(operation, key, error);
  }
}
