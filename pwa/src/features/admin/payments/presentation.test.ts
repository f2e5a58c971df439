import { describe, expect, it } from 'vitest';
import { formatDateTime, pageLabel, reportedAmount, reviewBanner } from './presentation.ts';

describe('payments tab presentation', () => {
  it('shows the date and Kampala time through the one formatter', () => {
    expect(formatDateTime('2026-11-22T09:05:00.000Z')).toBe('22 Nov 2026, 12:05 PM');
    expect(formatDateTime('2026-12-31T22:30:00.000Z')).toBe('1 Jan 2027, 1:30 AM');
    expect(formatDateTime(null)).toBe('—');
  });

  it("shows DPO's reported amount in UGX with thousands separators", () => {
    expect(reportedAmount({ reportedAmount: '24000.00', reportedCurrency: 'UGX' })).toBe('UGX 24,000');
    expect(reportedAmount({ reportedAmount: '10.50', reportedCurrency: 'usd' })).toBe('USD 10.50');
    expect(reportedAmount({ reportedAmount: null, reportedCurrency: null })).toBeNull();
    expect(reportedAmount({ reportedAmount: 'n/a', reportedCurrency: 'UGX' })).toBeNull();
  });

  it('words the review banner for one and many, and says nothing for none', () => {
    expect(reviewBanner(0)).toBeNull();
    expect(reviewBanner(1)).toBe(
      '1 payment needs review — the amount or reference did not match. Check DPO, then activate or refuse.',
    );
    expect(reviewBanner(3)).toMatch(/^3 payments need review — /);
  });

  it('labels the page', () => {
    expect(pageLabel(2, 3, 51)).toBe('Page 2 of 3 · 51 payments');
    expect(pageLabel(1, 1, 1)).toBe('Page 1 of 1 · 1 payment');
  });
});
