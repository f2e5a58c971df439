import {
  formatDateTime as formatSharedDateTime,
  formatUgx,
  type AdminPayment,
  type PaymentStatus,
} from '@filamu/shared';

/** The filter chips, in the order the tab shows them. */
export const STATUS_FILTERS: Array<{ value: PaymentStatus | null; label: string }> = [
  { value: null, label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'completed', label: 'Completed' },
  { value: 'review', label: 'Review' },
  { value: 'failed', label: 'Failed' },
  { value: 'expired', label: 'Expired' },
];

export const STATUS_LABEL: Record<PaymentStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  review: 'Needs review',
  failed: 'Failed',
  expired: 'Expired',
};

export const MNO_LABEL: Record<string, string> = { MTNmobilemoney: 'MTN', Mobile_Airtel_UG: 'Airtel' };

/** The date and Kampala time through the one formatter, `22 Nov 2026, 12:00 PM`; a dash for nothing. */
export function formatDateTime(value: string | null | undefined): string {
  const formatted = formatSharedDateTime(value);
  return formatted === 'N/A' ? '—' : formatted;
}

/** DPO reports decimals as text ("24000.00"); shown as UGX like every other amount, or null when it said nothing. */
export function reportedAmount(payment: Pick<AdminPayment, 'reportedAmount' | 'reportedCurrency'>): string | null {
  const value = payment.reportedAmount?.trim();
  if (!value || !Number.isFinite(Number(value))) return null;
  const currency = payment.reportedCurrency?.trim().toUpperCase() || 'UGX';
  return currency === 'UGX' ? formatUgx(value) : `${currency} ${value}`;
}

/** The review banner's sentence, or null when nothing waits. */
export function reviewBanner(count: number): string | null {
  if (count <= 0) return null;
  const subject = count === 1 ? '1 payment needs review' : `${count} payments need review`;
  return `${subject} — the amount or reference did not match. Check DPO, then activate or refuse.`;
}

/** The toast after "Check with DPO": its title by the state the payment is in now. */
export const RECHECK_TITLE: Record<PaymentStatus, string> = {
  pending: 'Still pending',
  completed: 'Completed — subscription activated',
  failed: 'Failed',
  expired: 'Expired',
  review: 'Needs review',
};

export function pageLabel(page: number, pageCount: number, total: number): string {
  return `Page ${page} of ${pageCount} · ${total} ${total === 1 ? 'payment' : 'payments'}`;
}
