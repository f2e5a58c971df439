import { describe, expect, it } from 'vitest';
import { parseRetryAfter, rateLimitedMessage, waitAfterRateLimit } from './retry-after.ts';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 1 ', now)).toBe(1000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });

  it('waits at least as long as the server asked, and at least the usual back-off', () => {
    const noJitter = () => 1;
    expect(waitAfterRateLimit(1, 900_000, noJitter)).toBe(900_000);
    expect(waitAfterRateLimit(1, null, noJitter)).toBe(1000);
    expect(waitAfterRateLimit(7, 2000, noJitter)).toBe(60_000);
  });

  it('says when it resumes', () => {
    expect(rateLimitedMessage(12_000)).toBe('The server is busy: resuming in 12 s');
    expect(rateLimitedMessage(900_000)).toBe('The server is busy: resuming in 15 min');
  });
});
