import { formatDayMonth, type RedownloadAllowance } from '@filamu/shared';

/**
 * What a "Download again" uses, said before it starts (decision 0121): one of the month's re-downloads, or one of the
 * extra ones support granted, and how many are left after it. Null when none is left.
 */
export function redownloadCost(allowance: RedownloadAllowance): string | null {
  if (allowance.remaining <= 0) return null;
  const left = allowance.remaining - 1;
  if (allowance.usedThisMonth < allowance.perMonth) {
    return `Uses 1 of your ${allowance.perMonth} re-downloads this month (${left} left).`;
  }
  return `Uses 1 of the extra re-downloads support gave you (${left} left).`;
}

/** Why nothing is left, when it renews, and that support can help sooner. */
export function noRedownloadsLeft(allowance: RedownloadAllowance): string {
  const used =
    allowance.perMonth === 0
      ? 'Downloading a movie again needs a re-download from support.'
      : `You have used all ${allowance.perMonth} re-downloads for this month.`;
  return `${used} They renew on ${formatDayMonth(allowance.renewsAt)}. If you need this movie sooner, contact support: they can grant one.`;
}
