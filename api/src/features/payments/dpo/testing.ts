import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, type Running } from '../../../lib/loopback.testing.ts';

/** Test support for the DPO adapter: a fault proxy in front of the sandbox (servers: lib/loopback.testing.ts). */

/**
 * What the fault proxy does to one request: forward it, then answer 502, drop the connection or never answer; or
 * `lost`: answer 502 without forwarding (the request died at a load balancer before DPO saw it).
 */
export type Fault = '502' | 'drop' | 'stall' | 'lost';

export interface FaultProxy extends Running {
  /** Requests per DPO operation (`<Request>`) forwarded to the upstream. */
  forwarded(operation: string): number;
  /** The next request for `operation` is forwarded, then answered with `fault` instead of the upstream's answer. */
  failNext(operation: string, fault: Fault): void;
}

/**
 * A loopback HTTP proxy in front of a DPO endpoint that loses answers the way a flaky network or DPO's load balancer
 * does: the upstream has acted on the request, the caller never learns how.
 */
export function faultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const counts = new Map<string, number>();
  const faults = new Map<string, Fault[]>();
  const stalled = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const operation = /<Request>([^<]*)<\/Request>/.exec(body)?.[1]?.trim() ?? '';
        const fault = faults.get(operation)?.shift();
        if (fault === 'lost') {
          res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
          return;
        }
        counts.set(operation, (counts.get(operation) ?? 0) + 1);
        const upstream = await fetch(new URL(req.url ?? '/', upstreamUrl), {
          method: req.method,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/xml' },
          body: req.method === 'POST' ? body : undefined,
        });
        const answer = await upstream.text();
        if (fault === '502') {
          res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
        } else if (fault === 'drop') {
          req.socket.destroy();
        } else if (fault === 'stall') {
          stalled.add(res);
        } else {
          res
            .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' })
            .end(answer);
        }
      })();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        forwarded: (operation) => counts.get(operation) ?? 0,
        failNext: (operation, fault) => faults.set(operation, [...(faults.get(operation) ?? []), fault]),
        close: async () => {
          for (const res of stalled) res.destroy();
          await closeServer(server);
        },
      });
    });
  });
}
