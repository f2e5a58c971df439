/** Time is a dependency so tests can move it; nothing else calls `new Date()` for business rules. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
