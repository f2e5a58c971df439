import { createHash } from 'node:crypto';
import { leadingZeroBits, proofInput, solveProof } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { freshDatabase, testDatabases } from '../../../test/harness.ts';
import { TokenService } from './tokens.ts';
import { checkSolution, issueChallenge, PROOF_DIFFICULTY, PROOF_TTL_MS, spendSolution } from './proof-of-work.ts';

const tokens = new TokenService('a signing secret for the proof-of-work tests');
const sign = tokens.digest.bind(tokens);
const scope = { budget: 'sign-in', address: '2001:db8:1:2::/64' };
const now = new Date('2026-11-27T09:00:00.000Z');

describe('proof-of-work verifier', () => {
  it('accepts a solved challenge of its own scope before it expires', async () => {
    const challenge = issueChallenge(sign, scope, now);
    expect(challenge.difficulty).toBe(PROOF_DIFFICULTY);
    const solution = await solveProof(challenge);
    expect(checkSolution(sign, solution, scope, new Date(now.getTime() + PROOF_TTL_MS - 1000))).toMatchObject({
      ok: true,
    });
  });

  it('refuses a wrong nonce, an expired challenge, another address or budget, and a forged one', async () => {
    const challenge = issueChallenge(sign, scope, now, 8);
    const solution = await solveProof(challenge);
    // A nonce whose hash lacks the zero bits (found independently of the verifier).
    const bits = (nonce: string) =>
      leadingZeroBits(createHash('sha256').update(proofInput(solution.challenge, nonce)).digest());
    const wrong = ['a', 'b', 'c', 'd'].find((nonce) => bits(nonce) < 8)!;
    expect(checkSolution(sign, { ...solution, nonce: wrong }, scope, now)).toEqual({ ok: false, reason: 'unsolved' });

    const later = new Date(now.getTime() + PROOF_TTL_MS + 1000);
    expect(checkSolution(sign, solution, scope, later)).toEqual({ ok: false, reason: 'expired' });
    expect(checkSolution(sign, solution, { ...scope, address: '2001:db8:1:3::/64' }, now)).toEqual({
      ok: false,
      reason: 'other_scope',
    });
    expect(checkSolution(sign, solution, { ...scope, budget: 'recovery' }, now)).toEqual({
      ok: false,
      reason: 'other_scope',
    });
    const other = new TokenService('another secret');
    expect(checkSolution(other.digest.bind(other), solution, scope, now)).toEqual({ ok: false, reason: 'forged' });
    // A payload edited to ask for less work keeps the old signature.
    const [encoded, mac] = solution.challenge.split('.');
    const easier = Buffer.from(Buffer.from(encoded!, 'base64url').toString().replace('|8|', '|1|')).toString(
      'base64url',
    );
    expect(checkSolution(sign, { ...solution, challenge: `${easier}.${mac}` }, scope, now)).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(checkSolution(sign, { ...solution, challenge: 'not-a-challenge' }, scope, now)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});

describe.each(testDatabases)('proof-of-work spending on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(() => database.close());

  it('spends a solution once: a replay, also a concurrent one, is refused', async () => {
    const solution = await solveProof(issueChallenge(sign, scope, now, 8));
    const check = checkSolution(sign, solution, scope, now);
    if (!check.ok) throw new Error(check.reason);
    const spends = await Promise.all(
      Array.from({ length: 5 }, () => spendSolution(database.db, check.id, check.expiresAt)),
    );
    expect(spends.filter(Boolean)).toHaveLength(1);
    expect(await spendSolution(database.db, check.id, check.expiresAt)).toBe(false);
  });
});
