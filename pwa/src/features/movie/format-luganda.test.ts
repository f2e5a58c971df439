import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../../lib/i18n.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { formatDuration, formatEstimate, formatRunningTime } from './format.ts';

describe('the movie helpers in Luganda', () => {
  afterAll(() => activateLocale('en'));

  it('say months, minutes and hours in the active language, numbers unchanged', async () => {
    expect(formatDate('2026-04-05T09:00:00Z')).toBe('5 Apr 2026');
    expect(formatRunningTime(6300)).toBe('1 h 45 min');
    await activateLocale('lg');
    expect(formatDate('2026-04-05T09:00:00Z')).toBe('5 Apu 2026');
    expect(formatDateTime('2026-12-31T20:59:00Z')).toBe('31 Des 2026, 11:59 PM');
    expect(formatDate(null)).toBe('N/A');
    expect(formatRunningTime(6300)).toBe('ssaawa 1 ddakiika 45');
    expect(formatDuration(2048)).toBe('ddakiika 35');
    expect(formatEstimate(2048)).toBe('Nga ddakiika 35');
  });
});
