/** How long to wait before a retry: a base doubling per failure to a cap, spread by jitter. */
export interface BackoffPolicy {
  capMs: number;
  /** The wait is the doubled base times a factor drawn evenly between these two. */
  jitter: readonly [low: number, high: number];
}

/**
 * Downloads after a network failure: 1 s doubling to a 60 s cap, between half and the whole of it, so a whole
 * neighbourhood coming back online does not retry in step.
 */
export const DOWNLOAD_RETRY: BackoffPolicy = { capMs: 60_000, jitter: [0.5, 1] };

/** Upload parts: 1 s doubling to a 30 s cap, ±20 %, so the parallel parts of one file spread out. */
export const UPLOAD_RETRY: BackoffPolicy = { capMs: 30_000, jitter: [0.8, 1.2] };

/** The wait before retry number `attempt` (1-based). */
export function backoffMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, 1000 * 2 ** Math.max(0, attempt - 1));
  const [low, high] = policy.jitter;
  return Math.round(ceiling * (low + (high - low) * random()));
}
