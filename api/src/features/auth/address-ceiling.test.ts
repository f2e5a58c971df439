import { contracts, solveProof } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  newUser,
  registerProvenUser,
  type TestApp,
  type TestResponse,
  testDatabases,
} from '../../../test/harness.ts';
import { users } from '../../db/schema.ts';
import { deliverSmsOutbox } from '../sms/outbox.ts';
import { IP_CEILING, PROOF_MESSAGE, slowdownMs } from './ip-ceiling.ts';
import { hashPassword } from './passwords.ts';
import { PROOF_DIFFICULTY } from './proof-of-work.ts';

const { auth } = contracts;
const TOKEN = 'metrics-token-for-the-ceiling-tests';
const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const NEW_PASSWORD = 'a brand new passphrase';

/** 429 `proof_required` with a challenge and no Retry-After (nothing to wait for: the work is the price). */
function expectProofRequired(res: TestResponse) {
  expectErrorEnvelope(res, 429, 'proof_required', PROOF_MESSAGE);
  expect(res.headers.get('retry-after')).toBeNull();
  expect(res.json.error.proof).toEqual({ challenge: expect.any(String), difficulty: PROOF_DIFFICULTY });
  return res.json.error.proof as { challenge: string; difficulty: number };
}

describe('the delay curve', () => {
  it('waits nothing below 150 points, then up to 2 s just below the ceiling, where the proof of work takes over', () => {
    expect([0, 149, 150, 225, 299, 300, 5000].map(slowdownMs)).toEqual([0, 0, 13, 1013, 2000, 0, 0]);
  });
});

describe.each(testDatabases)('the per-address ceiling slows the abuser, not the neighbourhood, on %s', (kind) => {
  let t: TestApp;
  /** Accounts that exist, added straight to the database (one hash for all: the flood is what is under test). */
  let phones: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN: TOKEN } });
    const passwordHash = await hashPassword('a password nobody guesses');
    const now = t.clock.now();
    const rows = Array.from({ length: 2 * (IP_CEILING / 3) }, () => {
      const { email, phone, fullName } = newUser();
      return { email, phone: `256${phone.slice(1)}`, fullName, passwordHash, createdAt: now, updatedAt: now };
    });
    await t.deps.database.db.insert(users).values(rows);
    phones = rows.map((row) => row.phone);
  });
  afterAll(() => t.close());

  const login = (identifier: string, password: string, ip: string, proof?: unknown) =>
    t.call(auth.login, { body: { identifier, password, proof }, ip });
  const ask = (identifier: string, ip: string) => t.call(auth.requestRecoveryCode, { body: { identifier }, ip });
  const reset = (identifier: string, code: string, ip: string, proof?: unknown) =>
    t.call(auth.resetPassword, { body: { identifier, code, newPassword: NEW_PASSWORD, proof }, ip });

  async function codeOnPhone(phone: string): Promise<string> {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    const [latest] = t.deps.smsSimulator!.messages(phone);
    const code = /\b(\d{6})\b/.exec(latest?.text ?? '')?.[1];
    if (!code) throw new Error(`no code on ${phone}`);
    return code;
  }

  const ceilingCount = async (budget: string, step: string) => {
    const res = await t.request('GET', '/api/metrics', { token: TOKEN });
    const line = res.text
      .split('\n')
      .find((l) => l.startsWith(`filamu_address_ceiling_total{budget="${budget}",step="${step}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  /** Sends all at once in groups, as a flooder would; returns the statuses. */
  async function flood(count: number, attempt: (i: number) => Promise<TestResponse>, group = 30) {
    const statuses: number[] = [];
    for (let start = 0; start < count; start += group) {
      const batch = Array.from({ length: Math.min(group, count - start) }, (_, i) => attempt(start + i));
      statuses.push(...(await Promise.all(batch)).map((res) => res.status));
    }
    return statuses;
  }

  it(
    'a flood of wrong codes and sign-ins for 110 numbers nobody registered leaves everyone behind the address alone',
    { timeout: 240_000 },
    async () => {
      const nat = freshIp();
      const { body: neighbour } = await registerProvenUser(t);
      const unknown = Array.from({ length: 110 }, (_, i) => `0779${String(900_000 + i).padStart(6, '0')}`);
      // The outside review's flood: 330 wrong codes for 110 numbers, then as many wrong passwords for them.
      const codes = await flood(330, (i) => reset(unknown[i % 110]!, '000000', nat));
      expect(codes.every((status) => status === 400 || status === 429)).toBe(true);
      const signIns = await flood(330, (i) => login(unknown[i % 110]!, `guess-${i}`, nat));
      expect(signIns.every((status) => status === 401 || status === 429)).toBe(true);

      // The admin and the neighbour sign in at once: no delay, no check, no lock.
      expect((await login(ADMIN.email, ADMIN.password, nat)).status).toBe(200);
      expect((await login(neighbour.phone, neighbour.password, nat)).status).toBe(200);
      // And the neighbour recovers the account: a code asked for, received and used from the same address.
      expect((await ask(neighbour.phone, nat)).status).toBe(200);
      const recovered = await reset(neighbour.phone, await codeOnPhone(`256${neighbour.phone.slice(1)}`), nat);
      expect(recovered.status, recovered.text).toBe(200);

      for (const budget of ['sign-in', 'recovery']) {
        for (const step of ['delayed', 'proof_required']) expect(await ceilingCount(budget, step)).toBe(0);
      }
    },
  );

  it(
    'wrong codes over real accounts slow the address, then ask each attempt for a proof of work; a neighbour still signs in and recovers',
    { timeout: 240_000 },
    async () => {
      const nat = freshIp();
      const { body: neighbour } = await registerProvenUser(t);
      const warn = vi.spyOn(t.deps.logger, 'warn');
      const flooded = phones.slice(0, IP_CEILING / 3);
      // Three wrong codes for each of 100 accounts: 300 points, each answered as a wrong code (slowed, never locked).
      const codes = await flood(IP_CEILING, (i) => reset(flooded[i % flooded.length]!, '000000', nat));
      expect(codes.filter((status) => status === 400)).toHaveLength(IP_CEILING);
      expect(await ceilingCount('recovery', 'delayed')).toBeGreaterThan(0);

      // Over the ceiling: the flooder's next attempt must bring a proof of work.
      const challenge = expectProofRequired(await reset(flooded[0]!, '000000', nat));
      expect(await ceilingCount('recovery', 'proof_required')).toBe(1);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ budget: 'recovery', points: IP_CEILING }),
        'address over its failed sign-in ceiling: attempts need a proof of work',
      );
      // With one it is checked (a wrong code is still a wrong code); the same proof again is refused.
      const proof = await solveProof(challenge);
      expectErrorEnvelope(await reset(phones[150]!, '000000', nat, proof), 400, 'bad_request', WRONG_CODE);
      expectProofRequired(await reset(phones[151]!, '000000', nat, proof));
      // A made-up proof is refused too.
      expectProofRequired(await reset(phones[151]!, '000000', nat, { challenge: 'made.up', nonce: '0' }));

      // Sign-in keeps its own budget: the neighbour signs in straight away.
      expect((await login(neighbour.email, neighbour.password, nat)).status).toBe(200);
      // And recovers the account through the check, from the same address.
      expect((await ask(neighbour.phone, nat)).status).toBe(200);
      const code = await codeOnPhone(`256${neighbour.phone.slice(1)}`);
      const asked = expectProofRequired(await reset(neighbour.phone, code, nat));
      const recovered = await reset(neighbour.phone, code, nat, await solveProof(asked));
      expect(recovered.status, recovered.text).toBe(200);
      expect(await ceilingCount('recovery', 'proof_accepted')).toBe(2);
      // Another address is untouched.
      expectErrorEnvelope(await reset(flooded[0]!, '000000', freshIp()), 400, 'bad_request', WRONG_CODE);
      warn.mockRestore();
    },
  );

  it('counts a flood over many addresses of one IPv6 /64 as one address', { timeout: 240_000 }, async () => {
    const prefix = kind === 'pglite' ? '2001:db8:7:7' : '2001:db8:7:8';
    const flooded = phones.slice(IP_CEILING / 3);
    // Every attempt from its own address in the /64, as a phone that picks a new one each time.
    const codes = await flood(IP_CEILING, (i) =>
      reset(flooded[i % flooded.length]!, '000000', `${prefix}:${(i + 1).toString(16)}:a:b:c`),
    );
    expect(codes.filter((status) => status === 400)).toHaveLength(IP_CEILING);
    expectProofRequired(await reset(flooded[0]!, '000000', `${prefix}:ffff::1`));
    // The next /64 is another subscriber line.
    expectErrorEnvelope(await reset(flooded[0]!, '000000', `${prefix}1::1`), 400, 'bad_request', WRONG_CODE);
  });
});
