import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fault-injecting HTTP server for download tests. In front of an upstream (the built app) it passes every
 * request through and misbehaves only on file requests (`match`): drops the connection after N body bytes,
 * answers a chosen status, ignores `Range`, throttles, or serves other bytes under another ETag (the file
 * "changed"). Without an upstream it serves `override` bytes itself. It logs what every file request asked for
 * and how many body bytes it sent, so tests can assert on the wire.
 */
export interface Fault {
  /** Destroy the socket after this many body bytes. */
  dropAfter?: number;
  /** Answer this status (no body from upstream). */
  status?: number;
  /** Forward without `Range`/`If-Range`: a 200 with the whole file. */
  ignoreRange?: boolean;
  /** Send this many body bytes, then nothing more with the connection left open (a dead link). */
  stallAfter?: number;
}

export interface FileRequestLog {
  path: string;
  /** Path and query: a re-minted link has another signature. */
  url: string;
  /** When the request arrived and when its body ended (ms). */
  startedAt: number;
  endedAt: number;
  range: string | null;
  ifRange: string | null;
  status: number;
  bytesSent: number;
  /** Whether the body was cut by a `dropAfter` fault. */
  dropped: boolean;
}

export interface FaultProxyOptions {
  upstream?: string;
  match?: (path: string) => boolean;
}

export class FaultProxy {
  /** One fault per matching request, in order; none left → behave. */
  readonly faults: Fault[] = [];
  /** Applied to every matching request while set, in bytes per second. */
  throttleBps: number | null = null;
  /** Serve these bytes (with ranges) for matching requests instead of the upstream's. */
  override: { body: Buffer; etag: string } | null = null;
  readonly log: FileRequestLog[] = [];
  /** Matching requests in flight right now, and the most ever at once. */
  inFlight = 0;
  maxInFlight = 0;

  private server: Server | null = null;
  private readonly upstream: URL | null;
  private readonly match: (path: string) => boolean;

  constructor(options: FaultProxyOptions = {}) {
    this.upstream = options.upstream ? new URL(options.upstream) : null;
    this.match = options.match ?? ((path) => path.startsWith('/files/movies/'));
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Body bytes sent for matching requests in total. */
  bytesServed(): number {
    return this.log.reduce((sum, entry) => sum + entry.bytesSent, 0);
  }

  reset(): void {
    this.faults.length = 0;
    this.log.length = 0;
    this.throttleBps = null;
    this.override = null;
    this.maxInFlight = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!this.match(path)) return this.pass(req, res);

    const fault = this.faults.shift() ?? {};
    const entry: FileRequestLog = {
      path,
      url: req.url ?? path,
      startedAt: Date.now(),
      endedAt: 0,
      range: headerOf(req, 'range'),
      ifRange: headerOf(req, 'if-range'),
      status: 0,
      bytesSent: 0,
      dropped: false,
    };
    this.log.push(entry);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => {
      this.inFlight -= 1;
      entry.endedAt = Date.now();
    });

    if (fault.status) {
      entry.status = fault.status;
      res.writeHead(fault.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ error: { code: 'injected', message: `Injected ${fault.status}` } }));
      return;
    }

    const source = this.override
      ? serveBytes(this.override, fault.ignoreRange ? null : entry.range, entry.ifRange)
      : await this.fetchUpstream(req, fault.ignoreRange ?? false);
    entry.status = source.status;
    res.writeHead(source.status, source.headers);
    if (req.method === 'HEAD') return void res.end();
    await this.stream(source.chunks, res, entry, fault);
  }

  private async stream(
    chunks: AsyncIterable<Buffer>,
    res: ServerResponse,
    entry: FileRequestLog,
    fault: Fault,
  ): Promise<void> {
    const slice = 16 * 1024;
    const { dropAfter, stallAfter } = fault;
    let owedMs = 0;
    try {
      for await (const chunk of chunks) {
        for (let offset = 0; offset < chunk.length; offset += slice) {
          let piece = chunk.subarray(offset, offset + slice);
          if (stallAfter !== undefined && entry.bytesSent + piece.length >= stallAfter) {
            piece = piece.subarray(0, Math.max(0, stallAfter - entry.bytesSent));
            if (piece.length) await write(res, piece);
            entry.bytesSent += piece.length;
            await new Promise((resolve) => res.once('close', resolve));
            return;
          }
          if (dropAfter !== undefined && entry.bytesSent + piece.length >= dropAfter) {
            piece = piece.subarray(0, Math.max(0, dropAfter - entry.bytesSent));
            if (piece.length) await write(res, piece);
            entry.bytesSent += piece.length;
            entry.dropped = true;
            res.socket?.destroy();
            return;
          }
          if (res.destroyed) return;
          const ok = await write(res, piece);
          entry.bytesSent += piece.length;
          if (!ok) return;
          if (this.throttleBps) {
            // Sleep in steps the timer can keep (≥ 10 ms), owed time carried over between slices.
            owedMs += (piece.length / this.throttleBps) * 1000;
            if (owedMs >= 10) {
              const started = Date.now();
              await sleep(owedMs);
              owedMs -= Date.now() - started;
            }
          }
        }
      }
      res.end();
    } catch {
      res.destroy();
    }
  }

  private fetchUpstream(req: IncomingMessage, ignoreRange: boolean) {
    const headers = { ...req.headers };
    if (ignoreRange) {
      delete headers.range;
      delete headers['if-range'];
    }
    return new Promise<{ status: number; headers: Record<string, string | string[]>; chunks: AsyncIterable<Buffer> }>(
      (resolve, reject) => {
        const upstream = httpRequest(
          { ...this.target(req.url ?? '/'), method: req.method, headers, agent: false },
          (response) => {
            resolve({
              status: response.statusCode ?? 502,
              headers: response.headers as Record<string, string | string[]>,
              chunks: response,
            });
          },
        );
        upstream.on('error', reject);
        req.pipe(upstream);
      },
    );
  }

  private target(url: string) {
    if (!this.upstream) throw new Error('No upstream: set override to serve bytes.');
    return { hostname: this.upstream.hostname, port: this.upstream.port, path: url };
  }

  private pass(req: IncomingMessage, res: ServerResponse): void {
    if (!this.upstream) {
      res.writeHead(404).end();
      return;
    }
    const upstream = httpRequest(
      { ...this.target(req.url ?? '/'), method: req.method, headers: req.headers, agent: false },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

function write(res: ServerResponse, piece: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.write(piece)) return resolve(!res.destroyed);
    const settle = (ok: boolean) => {
      res.off('drain', onDrain).off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => settle(!res.destroyed);
    const onClose = () => settle(false);
    res.on('drain', onDrain).on('close', onClose);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A minimal single-range file server over a buffer (RFC 9110 §14): 206 / 416 / 200, If-Range by strong ETag. */
function serveBytes(file: { body: Buffer; etag: string }, range: string | null, ifRange: string | null = null) {
  const size = file.body.length;
  const base = {
    ETag: file.etag,
    'Accept-Ranges': 'bytes',
    'Content-Type': 'video/mp4',
    'Cache-Control': 'no-store',
  };
  const whole = () => ({
    status: 200,
    headers: { ...base, 'Content-Length': String(size) },
    chunks: once(file.body),
  });
  const match = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
  if (!match || (ifRange !== null && ifRange !== file.etag)) return whole();
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size) {
    return { status: 416, headers: { ...base, 'Content-Range': `bytes */${size}` }, chunks: once(Buffer.alloc(0)) };
  }
  return {
    status: 206,
    headers: { ...base, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(end - start + 1) },
    chunks: once(file.body.subarray(start, end + 1)),
  };
}

async function* once(buffer: Buffer): AsyncIterable<Buffer> {
  yield buffer;
}
