import { describe, expect, it } from 'vitest';
import { formatTimeLeft } from './eta.ts';

describe('formatTimeLeft', () => {
  it('says the time left in minutes and hours', () => {
    expect(formatTimeLeft(20)).toBe('Less than a minute left');
    expect(formatTimeLeft(12 * 60)).toBe('12 min left');
    expect(formatTimeLeft(65 * 60)).toBe('1 h 5 min left');
    expect(formatTimeLeft(2 * 3600)).toBe('2 h left');
  });
});
