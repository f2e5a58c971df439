import { describe, expect, it } from 'vitest';
import { mondayOf, weeklyNewSubscribers } from './weeks.ts';

const day = (date: string, newSubscribers: number) => ({ date, newSubscribers });

describe('mondayOf', () => {
  it('finds the Monday of the week, Monday itself included', () => {
    expect(mondayOf('2026-11-23')).toBe('2026-11-23'); // Monday
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // Sunday ends the week
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
  });

  it('crosses month and year ends', () => {
    expect(mondayOf('2026-03-01')).toBe('2026-02-23');
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
  });
});

describe('weeklyNewSubscribers', () => {
  it('sums days into Monday-start weeks and says how many days each week covers', () => {
    const daily = [
      day('2026-11-20', 1), // Fri
      day('2026-11-21', 2),
      day('2026-11-22', 3), // Sun
      day('2026-11-23', 4), // Mon
      day('2026-11-24', 0),
    ];
    expect(weeklyNewSubscribers(daily)).toEqual([
      { weekStart: '2026-11-16', days: 3, newSubscribers: 6 },
      { weekStart: '2026-11-23', days: 2, newSubscribers: 4 },
    ]);
  });

  it('keeps weeks with no sign-ups as zero and handles an empty series', () => {
    const daily = Array.from({ length: 14 }, (_, i) => day(`2026-11-${String(i + 2).padStart(2, '0')}`, 0));
    expect(weeklyNewSubscribers(daily)).toEqual([
      { weekStart: '2026-11-02', days: 7, newSubscribers: 0 },
      { weekStart: '2026-11-09', days: 7, newSubscribers: 0 },
    ]);
    expect(weeklyNewSubscribers([])).toEqual([]);
  });
});
