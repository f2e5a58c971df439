/**
 * An independent SigV4 check of a presigned S3 URL, written from the AWS spec rather than with the SDK
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html). s3rver does not verify
 * signatures, so this is what lets tests prove that a URL is bound to a Content-Type and Content-Length,
 * and that a Range header is not: the signature recomputed from the request a browser would send must
 * equal `X-Amz-Signature` exactly when S3 would accept it.
 */
import { createHash, createHmac } from 'node:crypto';

export interface RequestToCheck {
  method: string;
  /** Headers the client sends (any case). `host` is taken from the URL. */
  headers?: Record<string, string>;
  /** Defaults to now. */
  at?: Date;
}

export type PresignedUrlVerdict =
  | { valid: true }
  | {
      valid: false;
      reason: 'malformed' | 'missing signed header' | 'signature mismatch' | 'expired' | 'not yet valid';
    };

/** Whether S3 would accept `request` to `url` signed with `secretAccessKey`. */
export function checkPresignedUrl(url: string, secretAccessKey: string, request: RequestToCheck): PresignedUrlVerdict {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  const amzDate = query.get('X-Amz-Date');
  const credential = query.get('X-Amz-Credential');
  const signedHeaderList = query.get('X-Amz-SignedHeaders');
  const signature = query.get('X-Amz-Signature');
  const expires = Number(query.get('X-Amz-Expires'));
  if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !amzDate || !credential || !signedHeaderList) {
    return { valid: false, reason: 'malformed' };
  }
  const [, shortDate, region, service, terminator] = credential.split('/');
  const signedAt = parseAmzDate(amzDate);
  if (!signature || !shortDate || !region || !service || terminator !== 'aws4_request' || !signedAt) {
    return { valid: false, reason: 'malformed' };
  }
  if (!Number.isInteger(expires) || expires < 1) return { valid: false, reason: 'malformed' };

  const headers = new Map<string, string>([['host', parsed.host]]);
  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name.toLowerCase(), value);
  const signedHeaders = signedHeaderList.split(';');
  const canonicalHeaders: string[] = [];
  for (const name of signedHeaders) {
    const value = headers.get(name);
    if (value === undefined) return { valid: false, reason: 'missing signed header' };
    canonicalHeaders.push(`${name}:${value.trim().replace(/\s+/g, ' ')}\n`);
  }

  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? compare(av, bv) : compare(a, b)))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalRequest = [
    request.method.toUpperCase(),
    // S3 canonicalises the path exactly as sent (encoded once, no normalisation).
    parsed.pathname,
    canonicalQuery,
    canonicalHeaders.join(''),
    signedHeaderList,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${shortDate}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secretAccessKey}`, shortDate);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  if (createHmac('sha256', key).update(stringToSign).digest('hex') !== signature) {
    return { valid: false, reason: 'signature mismatch' };
  }

  const at = (request.at ?? new Date()).getTime();
  if (at < signedAt.getTime()) return { valid: false, reason: 'not yet valid' };
  if (at > signedAt.getTime() + expires * 1000) return { valid: false, reason: 'expired' };
  return { valid: true };
}

/** `20260101T120000Z` → Date. */
export function parseAmzDate(amzDate: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  return new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
}

/** SigV4's URI encoding: everything but `A-Z a-z 0-9 - _ . ~` as %XX of the UTF-8 bytes. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Byte order (what AWS sorts by), not locale order. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
