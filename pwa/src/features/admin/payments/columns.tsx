import { formatUgx, type AdminPayment, phoneForPeople } from '@filamu/shared';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../components/DataTable.tsx';
import { formatDateTime, MNO_LABEL, reportedAmount } from './presentation.ts';
import { RecheckButton } from './RecheckButton.tsx';
import { StatusBadge } from './StatusBadge.tsx';

const muted = 'text-xs text-stone-600 dark:text-stone-400';

function Resolution({ payment }: { payment: AdminPayment }) {
  const resolution = payment.resolution;
  if (!resolution) return null;
  const verb = resolution.action === 'activated' ? 'Activated' : 'Refused';
  return (
    <p className={`mt-1 max-w-xs ${muted}`}>
      <span className="font-semibold text-stone-800 dark:text-stone-200">
        {verb} by {resolution.by?.fullName ?? 'a deleted admin'}
      </span>{' '}
      on {formatDateTime(resolution.at)}: “{resolution.note}”
    </p>
  );
}

/** The table's columns; `onResolve` opens the decision dialog for a `review` row. */
export function paymentColumns(onResolve: (payment: AdminPayment) => void): Column<AdminPayment>[] {
  return [
    {
      id: 'time',
      header: 'Time',
      sortValue: (p) => p.createdAt,
      cell: (p) => (
        <div className="whitespace-nowrap">
          <div>{formatDateTime(p.createdAt)}</div>
          {p.settledAt && <div className={muted}>Settled {formatDateTime(p.settledAt)}</div>}
        </div>
      ),
    },
    {
      id: 'payer',
      header: 'Payer',
      cell: (p) =>
        p.user ? (
          <div>
            <div className="font-medium">{p.user.fullName}</div>
            <div className={`break-all ${muted}`}>{p.user.email}</div>
          </div>
        ) : (
          <span className={muted}>Deleted account</span>
        ),
    },
    {
      id: 'plan',
      header: 'Plan · Ref',
      cell: (p) => (
        <div>
          <div>{p.planName}</div>
          <div className="font-mono text-xs font-semibold whitespace-nowrap">{p.reference}</div>
        </div>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      numeric: true,
      sortValue: (p) => p.amount,
      cell: (p) => {
        const reported = p.status === 'review' ? reportedAmount(p) : null;
        return (
          <div className="whitespace-nowrap">
            <div>{formatUgx(p.amount)}</div>
            {reported && <div className={muted}>DPO: {reported}</div>}
          </div>
        );
      },
    },
    {
      id: 'phone',
      header: 'Phone · MNO',
      cell: (p) => (
        <div className="whitespace-nowrap">
          <div className="whitespace-nowrap">{phoneForPeople(p.phone)}</div>
          {p.mno && <div className={muted}>{MNO_LABEL[p.mno] ?? p.mno}</div>}
        </div>
      ),
    },
    {
      id: 'reference',
      header: 'DPO reference',
      hideOnNarrow: true,
      cell: (p) => (
        <div>
          <div className="font-mono text-xs">{p.dpoReference ?? '—'}</div>
          {p.dpoToken && (
            <div className={`font-mono break-all ${muted}`} title="DPO transaction token">
              {p.dpoToken}
            </div>
          )}
        </div>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (p) => (
        <div>
          <StatusBadge status={p.status} />
          <p className={`mt-1 max-w-xs ${muted}`}>{p.explanation}</p>
          <Resolution payment={p} />
        </div>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (p) =>
        p.status === 'review' ? (
          <Button
            size="sm"
            onClick={() => onResolve(p)}
            aria-label={`Resolve: payment by ${p.user?.email ?? 'deleted account'}`}
          >
            Resolve
          </Button>
        ) : p.status === 'pending' ? (
          <RecheckButton payment={p} />
        ) : null,
    },
  ];
}
