/**
 * A tiny typed HTTP client for the demo seeder: calls the API through the shared contracts (so
 * requests are typed from the schemas' inputs and answers are parsed by the same zod schemas the
 * server uses) and uploads bytes to signed links. It never logs, and never puts the token in an error.
 */
import {
  ApiErrorBody,
  type Contract,
  contracts,
  fillPath,
  type RequestOf,
  type ResponseOf,
  type UploadUrlResponse,
} from '@filamu/shared';

/** A failed step: what was being done and the API's own message. */
export class DemoStepError extends Error {
  constructor(
    readonly step: string,
    readonly status: number | null,
    readonly code: string | null,
    readonly detail: string,
  ) {
    super(`${step} failed: ${detail}${status === null ? '' : ` (HTTP ${status}${code ? ` ${code}` : ''})`}`);
    this.name = 'DemoStepError';
  }
}

export interface Session {
  token: string;
  deviceId: string;
}

/** Headers `fetch` computes itself; sending them from a signed-link response would only conflict. */
const HEADERS_FETCH_SETS = new Set(['content-length', 'host']);

export class ApiClient {
  private session: Session | null = null;

  constructor(readonly baseUrl: string) {}

  /** Every later call sends this session's `Authorization` and `X-Device-Id`. */
  signIn(session: Session): void {
    this.session = session;
  }

  /** Calls one API route; a non-2xx answer throws a {@link DemoStepError} carrying the API's message. */
  async call<C extends Contract>(step: string, contract: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    const url = `${this.baseUrl}/api${fillPath(contract.path, request.params ?? undefined)}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (this.session) {
      headers.authorization = `Bearer ${this.session.token}`;
      headers['x-device-id'] = this.session.deviceId;
    }
    const response = await send(step, url, {
      method: contract.method.toUpperCase(),
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    if (!response.ok) throw await stepError(step, response);
    const parsed = contract.response.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new DemoStepError(step, response.status, null, `unexpected answer: ${parsed.error.message}`);
    }
    return parsed.data as ResponseOf<C>;
  }

  /** PUTs bytes to a signed upload link with the headers the link was signed with; returns the ETag. */
  async upload(step: string, url: string, bytes: Uint8Array, signedHeaders: Record<string, string>): Promise<string> {
    const headers = Object.fromEntries(
      Object.entries(signedHeaders).filter(([name]) => !HEADERS_FETCH_SETS.has(name.toLowerCase())),
    );
    const response = await send(step, new URL(url, `${this.baseUrl}/`).toString(), {
      method: 'PUT',
      headers,
      body: bytes,
    });
    if (!response.ok) throw await stepError(step, response);
    return response.headers.get('etag') ?? '';
  }
}

async function send(step: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
    throw new DemoStepError(step, null, null, `could not reach ${new URL(url).origin} (${reason || String(error)})`);
  }
}

/** The API's error envelope message, or the start of whatever else answered. */
async function stepError(step: string, response: Response): Promise<DemoStepError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const envelope = ApiErrorBody.safeParse(body);
  if (envelope.success) {
    const { code, message, issues } = envelope.data.error;
    const details = issues?.map((issue) => `${issue.path ? `${issue.path}: ` : ''}${issue.message}`) ?? [];
    const full = details.length > 0 && !details.includes(message) ? `${message} ${details.join('; ')}` : message;
    return new DemoStepError(step, response.status, code, full);
  }
  return new DemoStepError(step, response.status, null, text.slice(0, 200).trim() || response.statusText);
}

export interface UploadFile {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * Uploads a file the way the admin screen does: ask for a signed link under a server-chosen key,
 * PUT the bytes to it (in parts when the server answers with a multipart upload), return the key.
 */
export async function uploadObject(
  api: ApiClient,
  step: string,
  folder: 'movies' | 'thumbnails',
  file: UploadFile,
): Promise<string> {
  const link = await api.call(step, contracts.movies.adminUploadUrl, {
    body: { fileName: file.fileName, fileType: file.contentType, fileSize: file.bytes.length, folder },
  });
  if (link.multipart) {
    await uploadInParts(api, step, link.s3Key, link.multipart, file.bytes);
  } else if (link.presignedUrl) {
    await api.upload(step, link.presignedUrl, file.bytes, link.headers);
  } else {
    throw new DemoStepError(step, null, null, 'the server returned neither an upload link nor a multipart upload');
  }
  return link.s3Key;
}

type Multipart = NonNullable<UploadUrlResponse['multipart']>;

/** S3 with a file over the multipart threshold: one PUT per part, then assemble; abort on failure. */
async function uploadInParts(api: ApiClient, step: string, s3Key: string, multipart: Multipart, bytes: Uint8Array) {
  const { uploadId, partSize, partCount } = multipart;
  try {
    const parts: { partNumber: number; etag: string }[] = [];
    for (const { partNumber, url } of multipart.parts) {
      const start = (partNumber - 1) * partSize;
      const partStep = `${step} (part ${partNumber}/${partCount})`;
      const etag = await api.upload(partStep, url, bytes.subarray(start, start + partSize), {});
      if (!etag) throw new DemoStepError(partStep, null, null, 'storage answered without an ETag for the part');
      parts.push({ partNumber, etag });
    }
    await api.call(step, contracts.movies.adminMultipartComplete, { body: { s3Key, uploadId, parts } });
  } catch (error) {
    // Best effort: leave no half-uploaded parts behind; the original failure is what gets reported.
    await api.call(step, contracts.movies.adminMultipartAbort, { body: { s3Key, uploadId } }).catch(() => undefined);
    throw error;
  }
}
