/** "in 40 seconds", "in 12 minutes": how long a refused caller waits, for the person reading the message. */
export function waitPhrase(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? 'in 1 second' : `in ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `in ${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'in 1 hour' : `in ${hours} hours`;
}

/** Whole seconds until `until`, never less than 1 (the value of a Retry-After header). */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
