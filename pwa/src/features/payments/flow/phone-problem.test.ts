import { paymentNumberProblem, type MobileNetworkCode } from '@filamu/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '../../../lib/i18n.ts';
import { problemText } from './phone-problem.ts';

const CASES: Array<[string, MobileNetworkCode]> = [
  ['', 'MTNmobilemoney'],
  ['12345', 'MTNmobilemoney'],
  ['0712 345 678', 'Mobile_Airtel_UG'],
  ['0752 123 456', 'MTNmobilemoney'],
  ['0772 123 456', 'Mobile_Airtel_UG'],
];

/** The payment step's number check, worded in the phone's language (decision 0258). */
describe('a payment number problem in the active language', () => {
  afterEach(() => activateLocale('en'));

  it('in English, word for word what the shared check (and so the server) says', () => {
    for (const [phone, network] of CASES) {
      const problem = paymentNumberProblem(phone, network)!;
      expect(problemText(problem, phone, network)).toBe(problem.message);
    }
  });

  it('in Luganda, other words with the same numbers and networks in them', async () => {
    await activateLocale('lg');
    const wrong = paymentNumberProblem('0752 123 456', 'MTNmobilemoney')!;
    const text = problemText(wrong, '0752 123 456', 'MTNmobilemoney');
    expect(text).not.toBe(wrong.message);
    expect(text).toContain('0752 123 456');
    expect(text).toContain('Airtel Money');
    expect(text).toContain('0772 123 456');
    for (const [phone, network] of CASES) {
      const problem = paymentNumberProblem(phone, network)!;
      expect(problemText(problem, phone, network)).not.toBe(problem.message);
    }
  });
});
