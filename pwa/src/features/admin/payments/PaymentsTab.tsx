import { type AdminPayment, PaymentStatus } from '@filamu/shared';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { paymentColumns } from './columns.tsx';
import { pageLabel, reviewBanner } from './presentation.ts';
import { useAdminPayments } from './queries.ts';
import { ResolveDialog } from './ResolveDialog.tsx';
import { StatusFilter } from './StatusFilter.tsx';

const SEARCH_DELAY_MS = 300;

/** Every payment, its DPO details and state; review payments are decided here, pending ones re-checked. */
export default function PaymentsTab() {
  // ?status=review opens on that filter: the Overview's "Waiting for review" card links here.
  const [searchParams] = useSearchParams();
  const [status, setStatus] = useState<PaymentStatus | null>(
    () => PaymentStatus.safeParse(searchParams.get('status')).data ?? null,
  );
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [resolving, setResolving] = useState<AdminPayment | null>(null);

  // Ask the server once typing pauses, not per keystroke; a new search starts at page 1.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const { data, error, isPending, isFetching, refetch } = useAdminPayments({ status, search, page });
  const columns = useMemo(() => paymentColumns(setResolving), []);
  // A decision can empty the last page of a filter (the row leaves Review): step back to a page that exists.
  const lastPage = data?.pageCount;
  if (lastPage !== undefined && page > lastPage) setPage(lastPage);
  const banner = reviewBanner(data?.needsReview ?? 0);

  const chooseStatus = (next: PaymentStatus | null) => {
    setStatus(next);
    setPage(1);
  };

  return (
    <>
      <TabHeading
        title="Payments"
        description="Every mobile money payment, as DPO last reported it."
        actions={
          <Button variant="outline" onClick={() => refetch()} loading={isFetching && !isPending}>
            Refresh
          </Button>
        }
      />

      {banner && (
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-medium">{banner}</p>
          {status !== 'review' && (
            <Button size="sm" variant="outline" onClick={() => chooseStatus('review')}>
              Show payments to review
            </Button>
          )}
        </div>
      )}

      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <StatusFilter value={status} counts={data?.counts} onChange={chooseStatus} />
        <Input
          label="Search payments"
          type="search"
          placeholder="FLM- reference, email or phone"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          className="w-full sm:w-80"
        />
      </div>

      {error && !data ? (
        <LoadFailure
          what="payments"
          error={error}
          fallback="Check your connection and try again."
          onRetry={() => void refetch()}
          retryLabel="Try again"
        />
      ) : (
        <>
          <DataTable
            columns={columns}
            rows={data?.payments ?? []}
            rowKey={(p) => p.id}
            caption="Payments, newest first"
            loading={isPending || (isFetching && !data)}
            empty={
              search || status
                ? 'No payments match these filters. Clear the search or choose All.'
                : 'No payments yet. They appear here as soon as someone starts paying for a plan.'
            }
            rowClassName={(p) => (p.status === 'review' ? 'bg-amber-50 dark:bg-amber-950/40' : undefined)}
          />
          {data && data.total > 0 && (
            <nav aria-label="Payment pages" className="mt-4 flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
                {pageLabel(data.page, data.pageCount, data.total)}
              </p>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page >= data.pageCount}
                  onClick={() => setPage((p) => p + 1)}
                >
                  Next
                </Button>
              </div>
            </nav>
          )}
        </>
      )}

      <ResolveDialog payment={resolving} onClose={() => setResolving(null)} />
    </>
  );
}
