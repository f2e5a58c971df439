import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { CompactSign, compactVerify, exportJWK, type JWK } from 'jose';
import type { FilmManifestClaims } from '@filamu/shared';
import type { Db } from '../../db/client.ts';
import { appSecrets } from '../../db/schema.ts';

const SECRET_NAME = 'licence_signing_key';

/** What a licence says (decision 0230), signed as a compact JWS (ES256) so a phone or an agent can check it offline. */
export interface LicenceClaims {
  v: 1;
  /** Licence id, movie id, the holder (`user:<id>` or `agent:<id>`), the phone and its key's id. */
  lid: string;
  mid: string;
  sub: string;
  dev: string;
  kid: string;
  way: string;
  /** Issued at, in seconds. */
  iat: number;
  /** The wrapped content key, base64url. */
  key: string;
}

export interface LicenceSigner {
  /** A licence's claims, or a film file's manifest (decision 0243): the same key signs both. */
  sign(claims: LicenceClaims | FilmManifestClaims): Promise<string>;
  /** The payload of a token this key signed, or null when the signature is not this key's (or it is no token). */
  verify(token: string): Promise<unknown>;
  /** The public half, for whoever checks a licence or a manifest. */
  publicJwk: JWK;
}

export async function licenceSignerFrom(privateKeyPem: string): Promise<LicenceSigner> {
  const key: KeyObject = createPrivateKey(privateKeyPem);
  const publicKey = createPublicKey(key);
  const publicJwk = await exportJWK(publicKey);
  const encoder = new TextEncoder();
  return {
    publicJwk,
    sign: (claims) =>
      new CompactSign(encoder.encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'ES256' }).sign(key),
    async verify(token) {
      try {
        const { payload } = await compactVerify(token, publicKey, { algorithms: ['ES256'] });
        return JSON.parse(new TextDecoder().decode(payload)) as unknown;
      } catch {
        return null;
      }
    },
  };
}

/**
 * The P-256 key licences are signed with: generated on first start and kept in `app_secrets` (like the VAPID pair),
 * so every replica signs with the same key. Run under the start-up lock.
 */
export async function resolveLicenceSigner(db: Db): Promise<LicenceSigner> {
  const stored = () => db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  let [row] = await stored();
  if (!row) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await db
      .insert(appSecrets)
      .values({ name: SECRET_NAME, value: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() })
      .onConflictDoNothing();
    [row] = await stored();
  }
  return licenceSignerFrom(row!.value);
}
