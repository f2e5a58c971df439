import { type ProofSolution, solveProof } from '@filamu/shared';
import { ApiError } from '../../lib/api.ts';

/** A server that keeps refusing fresh proofs is not helped by more work: say its message after this many. */
const MAX_PROOFS = 2;

/**
 * Sends a sign-in or recovery request; when the network is busy and the server asks for a proof of work
 * (`proof_required`, decision 0195), solves it and sends again, with no tap. `onChecking` drives the visible
 * "Checking your connection…" status while the phone works.
 */
export async function withProof<T>(
  send: (proof: ProofSolution | undefined) => Promise<T>,
  onChecking: (checking: boolean) => void,
  solve: typeof solveProof = solveProof,
): Promise<T> {
  let proof: ProofSolution | undefined;
  for (let solved = 0; ; solved += 1) {
    try {
      return await send(proof);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'proof_required' || !error.proof || solved >= MAX_PROOFS) {
        throw error;
      }
      onChecking(true);
      try {
        proof = await solve(error.proof);
      } finally {
        onChecking(false);
      }
    }
  }
}
