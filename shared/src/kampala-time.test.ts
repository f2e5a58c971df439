import { describe, expect, it } from 'vitest';
import {
  dateToKampalaLocal,
  kampalaDate,
  kampalaDayStart,
  kampalaLocalToDate,
  kampalaMonth,
  kampalaMonthStart,
  nextKampalaMonthStart,
} from './kampala-time.ts';

describe('Kampala local time', () => {
  it('reads YYYY-MM-DDThh:mm as UTC+3', () => {
    expect(kampalaLocalToDate('2026-12-31T23:59').toISOString()).toBe('2026-12-31T20:59:00.000Z');
    expect(kampalaLocalToDate('2027-01-01T00:00').toISOString()).toBe('2026-12-31T21:00:00.000Z');
  });

  it('names the Kampala calendar day, which starts at 21:00 UTC', () => {
    expect(kampalaDate(new Date('2026-12-31T20:59:59.999Z'))).toBe('2026-12-31');
    expect(kampalaDate(new Date('2026-12-31T21:00:00.000Z'))).toBe('2027-01-01');
  });

  it('round-trips', () => {
    for (const local of ['2026-02-28T12:00', '2028-02-29T00:30', '2026-11-22T09:05']) {
      expect(dateToKampalaLocal(kampalaLocalToDate(local))).toBe(local);
    }
  });

  it('starts a Kampala day and month at Kampala midnight, not UTC midnight', () => {
    // 21:30 UTC on 31 Oct is 00:30 on 1 Nov in Kampala.
    const justAfter = new Date('2026-10-31T21:30:00Z');
    expect(kampalaDayStart(justAfter).toISOString()).toBe('2026-10-31T21:00:00.000Z');
    expect(kampalaMonthStart(justAfter).toISOString()).toBe('2026-10-31T21:00:00.000Z');
    // 20:59 UTC on 31 Oct is still 23:59 on 31 Oct in Kampala.
    const justBefore = new Date('2026-10-31T20:59:00Z');
    expect(kampalaDayStart(justBefore).toISOString()).toBe('2026-10-30T21:00:00.000Z');
    expect(kampalaMonthStart(justBefore).toISOString()).toBe('2026-09-30T21:00:00.000Z');
  });

  it('refuses impossible dates', () => {
    expect(() => kampalaLocalToDate('2026-13-01T00:00')).toThrow(RangeError);
  });
});

describe('LocalDateTime schema', () => {
  it('refuses malformed text and impossible days with issues, never an exception', async () => {
    const { LocalDateTime } = await import('./schemas/admin-plans.ts');
    for (const bad of ['31/12/2026', '2026-02-31T10:00', '2027-02-29T10:00', '']) {
      expect(LocalDateTime.safeParse(bad).success, bad).toBe(false);
    }
    expect(LocalDateTime.safeParse('2028-02-29T10:00').success).toBe(true);
  });
});

describe('LocalDateTime range', () => {
  it('refuses years Postgres cannot store or no plan ends in, and keeps the whole four-digit range above them', async () => {
    const { LocalDateTime } = await import('./schemas/admin-plans.ts');
    for (const bad of ['0000-01-01T00:00', '0001-01-01T00:00', '1999-12-31T23:59']) {
      const result = LocalDateTime.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Choose a date in the years 2000–9999.');
    }
    for (const good of ['2000-01-01T00:00', '9999-12-31T23:59'])
      expect(LocalDateTime.safeParse(good).success).toBe(true);
  });

  it('names the Kampala month and when the next one begins', () => {
    // 21:30 UTC on 31 December is already January in Kampala.
    expect(kampalaMonth(new Date('2026-12-31T21:30:00Z'))).toBe('2027-01');
    expect(kampalaMonth(new Date('2026-12-31T20:59:00Z'))).toBe('2026-12');
    expect(nextKampalaMonthStart(new Date('2026-12-31T20:59:00Z')).toISOString()).toBe('2026-12-31T21:00:00.000Z');
    expect(nextKampalaMonthStart(new Date('2026-12-31T21:00:00Z')).toISOString()).toBe('2027-01-31T21:00:00.000Z');
  });
});
