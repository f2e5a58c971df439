const count = new Intl.NumberFormat('en-UG', { maximumFractionDigits: 0 });

/** Whole numbers with en-UG thousands separators: 1,500,000. */
export const formatCount = (n: number) => count.format(n);

const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** An axis label for a Kampala calendar day (YYYY-MM-DD): "Nov 23". The date is already Kampala's. */
export const shortDay = (date: string) => short.format(new Date(`${date}T00:00:00Z`));

/** An axis label for UGX: 25K, 1.5M, to keep the axis narrow (the tooltip and table give full figures). */
const oneDecimal = new Intl.NumberFormat('en-UG', { maximumFractionDigits: 1 });

export function compactUgx(n: number): string {
  if (n >= 1_000_000) return `${oneDecimal.format(n / 1_000_000)}M`;
  if (n >= 1_000) return `${oneDecimal.format(n / 1_000)}K`;
  return count.format(n);
}
