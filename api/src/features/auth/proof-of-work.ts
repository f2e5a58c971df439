import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { leadingZeroBits, proofInput, type ProofChallenge, type ProofSolution } from '@filamu/shared';
import { lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { proofOfWorkUses } from '../../db/schema.ts';

/**
 * Proof-of-work challenges for an address over its ceiling (decision 0195). Stateless to issue: a challenge is a
 * payload (budget, address key, expiry, difficulty, random id) with an HMAC by the app's signing secret, so any
 * replica checks it with one HMAC and one SHA-256. Only spending it writes: the id is inserted once, and a second
 * use of the same solution finds it there.
 */

/** 14 zero bits: ~16,000 hashes on average, 1–2 s on a cheap Android phone's WebCrypto (decision 0195). */
export const PROOF_DIFFICULTY = 14;
export const PROOF_TTL_MS = 2 * 60_000;
const VERSION = 'p1';

/** The keyed digest the app's tokens offer (`TokenService.digest`), separated by purpose. */
export type Signer = (purpose: string, data: string) => string;

export interface ProofScope {
  budget: string;
  address: string;
}

const mac = (sign: Signer, payload: string) => sign('proof-of-work', payload);

export function issueChallenge(
  sign: Signer,
  scope: ProofScope,
  now: Date,
  difficulty = PROOF_DIFFICULTY,
): ProofChallenge {
  const expires = Math.ceil((now.getTime() + PROOF_TTL_MS) / 1000);
  const id = randomBytes(12).toString('base64url');
  const payload = [VERSION, scope.budget, scope.address, expires, difficulty, id].join('|');
  const encoded = Buffer.from(payload).toString('base64url');
  return { challenge: `${encoded}.${mac(sign, payload)}`, difficulty };
}

export type ProofCheck =
  | { ok: true; id: string; expiresAt: Date }
  | { ok: false; reason: 'malformed' | 'forged' | 'other_scope' | 'expired' | 'unsolved' };

/** Checks a solution without touching the database: signature, scope, expiry and the hash's zero bits. */
export function checkSolution(sign: Signer, solution: ProofSolution, scope: ProofScope, now: Date): ProofCheck {
  const [encoded = '', signature = '', extra] = solution.challenge.split('.');
  if (extra !== undefined || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'malformed' };
  const payload = Buffer.from(encoded, 'base64url').toString();
  const expected = Buffer.from(mac(sign, payload), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { ok: false, reason: 'forged' };
  const [version, budget, address, expires, difficulty, id] = payload.split('|');
  if (version !== VERSION || !id) return { ok: false, reason: 'malformed' };
  if (budget !== scope.budget || address !== scope.address) return { ok: false, reason: 'other_scope' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (!(expiresAt > now)) return { ok: false, reason: 'expired' };
  const bits = Number(difficulty);
  if (!Number.isInteger(bits) || bits < 1) return { ok: false, reason: 'malformed' };
  const digest = createHash('sha256').update(proofInput(solution.challenge, solution.nonce)).digest();
  if (leadingZeroBits(digest) < bits) return { ok: false, reason: 'unsolved' };
  return { ok: true, id, expiresAt };
}

/** Spends a checked solution: true the first time, false for every replay (a conditional insert decides races). */
export async function spendSolution(exec: Executor, id: string, expiresAt: Date): Promise<boolean> {
  const inserted = await exec
    .insert(proofOfWorkUses)
    .values({ challengeId: id, expiresAt })
    .onConflictDoNothing()
    .returning({ id: proofOfWorkUses.challengeId });
  return inserted.length > 0;
}

export async function sweepSpentProofs(exec: Executor, now: Date): Promise<void> {
  await exec.delete(proofOfWorkUses).where(lte(proofOfWorkUses.expiresAt, now));
}
