import { contracts, leadingZeroBits, proofInput } from '@filamu/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installBrowserStubs, jsonResponse, testUser as user } from '../../lib/test-support.ts';

const proofRequired = (challenge: string) =>
  jsonResponse(429, {
    error: {
      code: 'proof_required',
      message: 'Many sign-ins from your network have failed, so the app must do a quick check first. Please try again.',
      requestId: 'r1',
      proof: { challenge, difficulty: 6 },
    },
  });

const sentBody = (fetchMock: ReturnType<typeof vi.fn>, call: number) =>
  JSON.parse(String((fetchMock.mock.calls[call] as unknown as [string, RequestInit])[1].body));

describe('sign-in through a busy network', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('solves the check the server asks for and sends the sign-in again, showing the status meanwhile', async () => {
    installBrowserStubs({ pathname: '/login' });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(proofRequired('abc.def'))
      .mockResolvedValueOnce(jsonResponse(200, { token: 'tok', user }));
    vi.stubGlobal('fetch', fetchMock);
    const { api } = await import('../../lib/api.ts');
    const { withProof } = await import('./with-proof.ts');
    const checking: boolean[] = [];

    const result = await withProof(
      (proof) => api(contracts.auth.login, { body: { identifier: '0772123456', password: 'secret pass', proof } }),
      (value) => checking.push(value),
    );

    expect(result.token).toBe('tok');
    expect(checking).toEqual([true, false]);
    expect(sentBody(fetchMock, 0).proof).toBeUndefined();
    const { proof } = sentBody(fetchMock, 1);
    expect(proof.challenge).toBe('abc.def');
    const digest = new Uint8Array(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(proofInput(proof.challenge, proof.nonce))),
    );
    expect(leadingZeroBits(digest)).toBeGreaterThanOrEqual(6);
  });

  it('says the server’s message when checks keep being asked for, and passes other errors on at once', async () => {
    installBrowserStubs({ pathname: '/login' });
    const fetchMock = vi.fn(async () => proofRequired('abc.def'));
    vi.stubGlobal('fetch', fetchMock);
    const { api } = await import('../../lib/api.ts');
    const { withProof } = await import('./with-proof.ts');
    const send = (proof: unknown) =>
      api(contracts.auth.login, { body: { identifier: '0772123456', password: 'secret pass', proof } as never });

    await expect(withProof(send, () => {})).rejects.toMatchObject({ code: 'proof_required' });
    expect(fetchMock).toHaveBeenCalledTimes(3);

    fetchMock.mockImplementation(async () =>
      jsonResponse(401, { error: { code: 'unauthenticated', message: 'Invalid credentials.', requestId: 'r2' } }),
    );
    fetchMock.mockClear();
    await expect(withProof(send, () => {})).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
