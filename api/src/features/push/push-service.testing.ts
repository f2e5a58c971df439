import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A local push service for tests, speaking RFC 8030 over TLS as FCM or Mozilla's autopush do: it takes the POST,
 * checks the VAPID JWT (RFC 8292: ES256 signed by the key in `k`, audience its own origin), decrypts the aes128gcm
 * body (RFC 8291) with the browser's private key, and answers 201, or 410 for a subscription it was told is gone.
 */
export interface LocalPushService {
  origin: string;
  /** An agent that trusts this service's self-signed certificate. */
  agent: Agent;
  /** A new browser subscription: its endpoint here and the keys the sender encrypts to. */
  subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** From now on this endpoint answers 410 Gone. */
  expire(endpoint: string): void;
  /** Payloads received and decrypted, per endpoint, in order. */
  received(endpoint?: string): { endpoint: string; payload: unknown; vapidSubject: string }[];
  /** Every POST, accepted or not. */
  requests(): number;
  close(): Promise<void>;
}

const b64u = (buffer: Buffer) => buffer.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'filamu-push-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' }); // prettier-ignore
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

/** RFC 8291 §3.4 + RFC 8188: one aes128gcm record, decrypted with the browser's keys. */
function decrypt(body: Buffer, browser: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = browser.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.getPublicKey(), senderKey]);
  const ikm = hmac(hmac(authSecret, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  return padded.subarray(0, padded.lastIndexOf(2));
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; returns the JWT's subject when the signature and audience hold. */
function checkVapid(header: string | undefined, origin: string): string | null {
  const match = /^vapid t=([\w.-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!match) return null;
  const [head, claims, signature] = match[1]!.split('.');
  const point = Buffer.from(match[2]!, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { aud: string; sub: string };
  return signed && payload.aud === origin ? payload.sub : null;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const tls = selfSignedCertificate();
  const browsers = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const gone = new Set<string>();
  const received: { endpoint: string; payload: unknown; vapidSubject: string }[] = [];
  let requests = 0;
  let origin = '';
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests += 1;
      const endpoint = `${origin}${req.url}`;
      const browser = browsers.get(endpoint);
      if (req.method !== 'POST' || !browser) return void res.writeHead(404).end();
      if (gone.has(endpoint)) return void res.writeHead(410).end('push subscription has unsubscribed or expired.');
      const subject = checkVapid(req.headers.authorization, origin);
      if (!subject) return void res.writeHead(401).end('bad VAPID');
      if (req.headers['content-encoding'] !== 'aes128gcm' || !req.headers.ttl) return void res.writeHead(400).end();
      try {
        const plain = decrypt(Buffer.concat(chunks), browser.ecdh, browser.auth);
        received.push({ endpoint, payload: JSON.parse(plain.toString('utf8')), vapidSubject: subject });
      } catch {
        return void res.writeHead(400).end('cannot decrypt');
      }
      res.writeHead(201, { location: `${endpoint}/m/${received.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let counter = 0;
  return {
    origin,
    agent: new Agent({ ca: tls.cert }),
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      counter += 1;
      const endpoint = `${origin}/wpush/v2/${counter}-${Date.now().toString(36)}`;
      browsers.set(endpoint, { ecdh, auth });
      return { endpoint, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
    },
    expire: (endpoint) => void gone.add(endpoint),
    received: (endpoint) => received.filter((r) => !endpoint || r.endpoint === endpoint),
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
