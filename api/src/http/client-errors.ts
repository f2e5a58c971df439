import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS, type ErrorCode } from '@filamu/shared';
import type { ServerType } from '@hono/node-server';
import type { Logger } from 'pino';

/**
 * Requests refused before the app runs still answer with the error envelope (decision 0092). Two places answered
 * with an empty body: Node's HTTP parser (a URL or headers over 16 KB: 431; a raw non-ASCII byte in the path, a bad
 * request line or header: 400; too slow: 408), through the server's `clientError` event; and @hono/node-server,
 * which answers a bodyless 400 when it cannot build the request's URL (a bad Host header, a backslash in the path).
 */
export function installClientErrorEnvelope(served: ServerType, logger: Logger): void {
  // serve() builds a plain HTTP/1.1 server unless told otherwise, and server.ts does not.
  const server = served as Server;
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    // Node's own rule: answer only on a socket still open with no response of its own under way.
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy(error);
      return;
    }
    const refusal = refusalFor(error.code);
    const requestId = randomUUID();
    logger.warn(
      { requestId, code: error.code, status: ERROR_STATUS[refusal.code] },
      'request refused by the HTTP parser',
    );
    socket.end(rawResponse(refusal, requestId));
  });

  // Every answer of the app carries X-Request-Id; an error answer without one never reached it.
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    envelopeBodylessErrors(res, logger);
    for (const listener of listeners) listener.call(server, req, res);
  });
}

interface Refusal {
  code: ErrorCode;
  message: string;
}

function refusalFor(parserCode: string | undefined): Refusal {
  switch (parserCode) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'The address or headers of the request are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request took too long to arrive.' };
    case 'HPE_INVALID_URL':
      return {
        code: 'bad_request',
        message: 'The address contains characters that are not allowed; percent-encode them.',
      };
    default:
      return { code: 'bad_request', message: 'The request could not be read: it is not well-formed HTTP.' };
  }
}

function envelope(refusal: Refusal, requestId: string): string {
  return JSON.stringify({ error: { code: refusal.code, message: refusal.message, requestId } });
}

function rawResponse(refusal: Refusal, requestId: string): string {
  const status = ERROR_STATUS[refusal.code];
  const body = envelope(refusal, requestId);
  return [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Replaces an error answer written without the app (no X-Request-Id) by the envelope with the same status. */
function envelopeBodylessErrors(res: ServerResponse, logger: Logger): void {
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, unknown>) => ServerResponse;
  const end = res.end.bind(res) as (body: string) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null) as Record<string, unknown> | undefined;
    const fromApp =
      res.hasHeader('x-request-id') || Object.keys(headers ?? {}).some((k) => k.toLowerCase() === 'x-request-id');
    if (status < 400 || fromApp) return (writeHead as (...args: unknown[]) => ServerResponse)(status, ...rest);
    const requestId = randomUUID();
    const refusal: Refusal =
      status === 400
        ? { code: 'bad_request', message: 'The request address or Host header is not valid.' }
        : { code: 'internal', message: 'Something went wrong on our side. Please try again.' };
    logger.warn({ requestId, status }, 'request refused before the app');
    const body = envelope(refusal, requestId);
    writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    end(body);
    // The adapter goes on to write its empty body: the answer is already complete.
    res.write = (() => true) as never;
    res.end = (() => res) as never;
    return res;
  }) as typeof res.writeHead;
}
