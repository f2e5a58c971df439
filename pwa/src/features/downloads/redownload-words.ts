import { type RedownloadAllowance } from '@filamu/shared';
import { dayMonthWords } from './describe.ts';
import { downloadsT } from './messages.ts';

/**
 * What a "Download again" uses, said before it starts (decision 0121): one of the month's re-downloads, or one of the
 * extra ones support granted, and how many are left after it. Null when none is left.
 */
export function redownloadCost(allowance: RedownloadAllowance): string | null {
  if (allowance.remaining <= 0) return null;
  const left = allowance.remaining - 1;
  if (allowance.usedThisMonth < allowance.perMonth) {
    return downloadsT('downloads.again.costMonthly', { perMonth: allowance.perMonth, left });
  }
  return downloadsT('downloads.again.costExtra', { left });
}

/** Why nothing is left, when it renews, and that support can help sooner. */
export function noRedownloadsLeft(allowance: RedownloadAllowance): string {
  const used =
    allowance.perMonth === 0
      ? downloadsT('downloads.again.noneMonthly')
      : downloadsT('downloads.again.usedAll', { perMonth: allowance.perMonth });
  return `${used} ${downloadsT('downloads.again.renews', { date: dayMonthWords(allowance.renewsAt) })}`;
}
