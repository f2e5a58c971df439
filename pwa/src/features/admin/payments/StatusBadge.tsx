import type { PaymentStatus } from '@filamu/shared';
import { Badge, type BadgeTone } from '../../../components/ui/Badge.tsx';
import { STATUS_LABEL } from './presentation.ts';

const TONE: Record<Exclude<PaymentStatus, 'review'>, BadgeTone> = {
  pending: 'info',
  completed: 'success',
  failed: 'danger',
  expired: 'neutral',
};

/** A payment's status; `review` is amber (no Badge tone has it) so it stands out from failures and successes. */
export function StatusBadge({ status }: { status: PaymentStatus }) {
  if (status === 'review') {
    return (
      <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-900 ring-1 ring-amber-400 ring-inset dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-700">
        {STATUS_LABEL.review}
      </span>
    );
  }
  return (
    <Badge tone={TONE[status]} className="whitespace-nowrap">
      {STATUS_LABEL[status]}
    </Badge>
  );
}
