import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 capability URLs for the local driver (security R22, R24): everything that decides what a link
 * may do is in the signed canonical string, and everything is in the query string, so a signed GET needs no
 * custom request header (no CORS preflight per chunk).
 */

/** The longest lifetime a link may have; the same cap as an S3 SigV4 presigned URL (7 days). */
export const MAX_LINK_SECONDS = 604_800;

/** What a link allows: one method on one key until `expires`, with its grant, name, type and size bound in. */
export interface LinkFields {
  /** GET covers HEAD too (a HEAD is a GET without the body). */
  method: 'GET' | 'PUT';
  key: string;
  /** Unix seconds; the link is dead from this second on. */
  expires: number;
  grant: string | null;
  downloadName: string | null;
  /** PUT only: the one Content-Type the upload must carry. */
  contentType: string | null;
  /** PUT only: the most bytes the upload may have. */
  maxBytes: number | null;
  /** Part links of a multipart upload only: which upload and which part the bytes are (absent elsewhere). */
  uploadId?: string | null;
  partNumber?: number | null;
  /**
   * GET links of a download grant only: who the link was minted for (opaque to storage; the grant check reads it).
   * Signed, so a link cannot be moved to another session.
   */
  holder?: string | null;
}

/** Query parameter names, short because the URL is handed around a lot. */
const PARAM = {
  expires: 'exp',
  grant: 'grant',
  downloadName: 'name',
  contentType: 'type',
  maxBytes: 'max',
  uploadId: 'upload',
  partNumber: 'part',
  holder: 'holder',
  signature: 'sig',
} as const;

const SIGNED_PARAMS = Object.values(PARAM);
/** Canonical decimals only (no leading zeros), so one value has exactly one spelling; both stay below 2^53. */
const UNIX_SECONDS = /^(?:0|[1-9]\d{0,11})$/;
const BYTE_COUNT = /^(?:0|[1-9]\d{0,14})$/;
const PART_NUMBER = /^[1-9]\d{0,4}$/;

/**
 * The canonical string: a JSON array, so no field can run into the next (a name containing a separator, or
 * `null` vs an empty string, always give different strings). Versioned so the format can change later.
 */
function canonical(fields: LinkFields): string {
  const base = [
    'filamu-files-v1',
    fields.method,
    fields.key,
    fields.expires,
    fields.grant,
    fields.downloadName,
    fields.contentType,
    fields.maxBytes,
  ];
  // Part links append the upload and part (a longer array never equals a shorter one), so every link signed
  // before multipart existed keeps its signature.
  const uploadId = fields.uploadId ?? null;
  if (uploadId !== null) return JSON.stringify([...base, uploadId, fields.partNumber ?? null]);
  // A holder is appended after two nulls, so it can never read as an upload id or a part number.
  const holder = fields.holder ?? null;
  return JSON.stringify(holder === null ? base : [...base, null, null, holder]);
}

function signatureOf(secret: string, fields: LinkFields): string {
  return createHmac('sha256', secret).update(canonical(fields)).digest('base64url');
}

/** The query string of a link (without `?`), signature last. */
export function signedQuery(secret: string, fields: LinkFields): string {
  const query = new URLSearchParams({ [PARAM.expires]: String(fields.expires) });
  if (fields.grant !== null) query.set(PARAM.grant, fields.grant);
  if (fields.downloadName !== null) query.set(PARAM.downloadName, fields.downloadName);
  if (fields.contentType !== null) query.set(PARAM.contentType, fields.contentType);
  if (fields.maxBytes !== null) query.set(PARAM.maxBytes, String(fields.maxBytes));
  if (fields.uploadId != null) query.set(PARAM.uploadId, fields.uploadId);
  if (fields.partNumber != null) query.set(PARAM.partNumber, String(fields.partNumber));
  if (fields.holder != null) query.set(PARAM.holder, fields.holder);
  query.set(PARAM.signature, signatureOf(secret, fields));
  return query.toString();
}

export type LinkCheck = { ok: true; fields: LinkFields } | { ok: false; reason: 'invalid' | 'expired' };

/** Whether the query carries a signature at all (unsigned requests may still read public thumbnails). */
export function hasSignature(query: URLSearchParams): boolean {
  return query.has(PARAM.signature);
}

/**
 * Checks a request against its link: the fields are rebuilt from the query and the request's own method and key,
 * so a link replayed with another method, on another key, or with any parameter changed or removed, fails.
 */
export function checkLink(
  secret: string,
  request: { method: 'GET' | 'PUT'; key: string; query: URLSearchParams; now: Date },
): LinkCheck {
  const { query } = request;
  // A repeated parameter could be read one way here and another way by a cache or a log: refuse it.
  if (SIGNED_PARAMS.some((name) => query.getAll(name).length > 1)) return { ok: false, reason: 'invalid' };
  const expires = query.get(PARAM.expires);
  const maxBytes = query.get(PARAM.maxBytes);
  const signature = query.get(PARAM.signature);
  if (expires === null || !UNIX_SECONDS.test(expires) || signature === null) return { ok: false, reason: 'invalid' };
  if (maxBytes !== null && !BYTE_COUNT.test(maxBytes)) return { ok: false, reason: 'invalid' };
  const uploadId = query.get(PARAM.uploadId);
  const partNumber = query.get(PARAM.partNumber);
  // Both or neither: a part number outside the signature must never ride along on another link.
  if ((uploadId === null) !== (partNumber === null)) return { ok: false, reason: 'invalid' };
  if (partNumber !== null && !PART_NUMBER.test(partNumber)) return { ok: false, reason: 'invalid' };
  const holder = query.get(PARAM.holder);
  if (holder !== null && uploadId !== null) return { ok: false, reason: 'invalid' };

  const fields: LinkFields = {
    method: request.method,
    key: request.key,
    expires: Number(expires),
    grant: query.get(PARAM.grant),
    downloadName: query.get(PARAM.downloadName),
    contentType: query.get(PARAM.contentType),
    maxBytes: maxBytes === null ? null : Number(maxBytes),
    ...(uploadId !== null && partNumber !== null ? { uploadId, partNumber: Number(partNumber) } : {}),
    ...(holder !== null ? { holder } : {}),
  };
  // The text itself is compared (not decoded bytes): base64url decoding is lenient, and two spellings of one
  // signature must not both be accepted. timingSafeEqual needs equal lengths, and the length is no secret.
  const expected = Buffer.from(signatureOf(secret, fields));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (request.now.getTime() >= fields.expires * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, fields };
}

/** Unix seconds `seconds` from `now`, after checking the lifetime is sane. */
export function expiryFrom(now: Date, seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_LINK_SECONDS) {
    throw new RangeError(`link lifetime must be 1…${MAX_LINK_SECONDS} whole seconds, got ${seconds}`);
  }
  return Math.floor(now.getTime() / 1000) + seconds;
}
