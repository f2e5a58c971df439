import { z } from 'zod';

/**
 * The proof of work a busy network's sign-ins and recoveries pass through (decision 0195): find a nonce such that
 * SHA-256(`challenge:nonce`) starts with `difficulty` zero bits. The server signs the challenge and checks one hash;
 * the app searches with WebCrypto, a batch at a time, giving the page a turn between batches.
 */

/** What a `proof_required` answer carries in its envelope. */
export const ProofChallenge = z.object({
  challenge: z.string(),
  /** Leading zero bits the hash must have. */
  difficulty: z.number().int(),
});
export type ProofChallenge = z.infer<typeof ProofChallenge>;

/** The solution a retried sign-in or recovery sends; bounded like every input. */
export const ProofSolution = z.object({
  challenge: z
    .string()
    .max(512, 'The check is not valid.')
    .regex(/^[A-Za-z0-9_.-]+$/, 'The check is not valid.'),
  nonce: z
    .string()
    .max(16, 'The check is not valid.')
    .regex(/^[0-9a-z]+$/, 'The check is not valid.'),
});
export type ProofSolution = z.infer<typeof ProofSolution>;

/** The bytes hashed for a nonce. */
export const proofInput = (challenge: string, nonce: string) => `${challenge}:${nonce}`;

/** How many zero bits the digest starts with. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

const BATCH = 256;

/**
 * Searches nonces until one meets the difficulty. Each batch's digests run together (WebCrypto is asynchronous), and
 * a timer turn between batches keeps the page responsive on a slow phone. Stops with an AbortError when `signal` is.
 */
export async function solveProof(
  { challenge, difficulty }: ProofChallenge,
  signal?: AbortSignal,
): Promise<ProofSolution> {
  const encoder = new TextEncoder();
  for (let start = 0; ; start += BATCH) {
    signal?.throwIfAborted();
    const nonces = Array.from({ length: BATCH }, (_, i) => (start + i).toString(36));
    const digests = await Promise.all(
      nonces.map((nonce) => crypto.subtle.digest('SHA-256', encoder.encode(proofInput(challenge, nonce)))),
    );
    const found = digests.findIndex((digest) => leadingZeroBits(new Uint8Array(digest)) >= difficulty);
    if (found >= 0) return { challenge, nonce: nonces[found]! };
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
