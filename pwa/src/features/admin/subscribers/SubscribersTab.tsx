import { type Subscriber, formatDate, phoneForPeople } from '@filamu/shared';
import { useEffect, useState } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { GrantRedownloadDialog } from './GrantRedownloadDialog.tsx';
import { HistoryDialog } from './HistoryDialog.tsx';
import { ManageSubscriptionDialog } from './ManageSubscriptionDialog.tsx';
import { Pager } from './Pager.tsx';
import { ResetPasswordDialog } from './ResetPasswordDialog.tsx';
import { SUBSCRIBERS_PAGE_SIZE, useDeleteSubscriber, useSubscribers } from './queries.ts';

/** Waits for typing to pause before searching, so each keystroke is not a request. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Product §2 Subscribers: every account with its subscription; manage or delete anyone but the protected admin. */
export default function SubscribersTab() {
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), 300);
  // The page belongs to the search it was picked for: a new search starts again at page 1.
  const [paging, setPaging] = useState({ search, page: 1 });
  const page = paging.search === search ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search, page: next });
  const [managing, setManaging] = useState<Subscriber | null>(null);
  const [deleting, setDeleting] = useState<Subscriber | null>(null);
  const [granting, setGranting] = useState<Subscriber | null>(null);
  const [resetting, setResetting] = useState<Subscriber | null>(null);
  const [reading, setReading] = useState<Subscriber | null>(null);
  const list = useSubscribers(search, page);
  const remove = useDeleteSubscriber();

  const total = list.data?.total ?? 0;

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: (result) => {
        toast.success(result.message);
        setDeleting(null);
        // Deleting the last row of a later page steps back to a page that still has rows.
        if (page > 1 && list.data?.subscribers.length === 1) setPage(page - 1);
      },
      onError: (error) => {
        toast.error('Failed to delete subscriber', errorMessage(error, 'Please try again.'));
        setDeleting(null);
      },
    });
  };

  const columns: Column<Subscriber>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: (s) =>
        s.full_name ? (
          <span className="font-semibold">{s.full_name}</span>
        ) : (
          <span className="text-stone-600 italic dark:text-stone-400">No Name Provided</span>
        ),
    },
    { id: 'email', header: 'Email', cell: (s) => <span className="break-all">{s.email}</span> },
    { id: 'phone', header: 'Phone', cell: (s) => <span className="whitespace-nowrap">{phoneForPeople(s.phone)}</span> },
    {
      id: 'status',
      header: 'Status',
      cell: (s) => <Badge tone={s.issubscribed ? 'success' : 'neutral'}>{s.issubscribed ? 'Active' : 'None'}</Badge>,
    },
    { id: 'plan', header: 'Plan', cell: (s) => s.subscription_plan ?? 'No Plan' },
    {
      id: 'subscribed',
      header: 'Subscribed',
      cell: (s) => <span className="whitespace-nowrap">{formatDate(s.subscription_start_date)}</span>,
    },
    {
      id: 'expires',
      header: 'Expires',
      cell: (s) => <span className="whitespace-nowrap">{formatDate(s.subscription_end_date)}</span>,
    },
    {
      id: 'role',
      header: 'Role',
      cell: (s) => <Badge tone={s.is_admin ? 'brand' : 'info'}>{s.is_admin ? 'Admin' : 'Subscriber'}</Badge>,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (s) =>
        s.is_protected ? (
          <span className="text-sm text-stone-600 dark:text-stone-400">Protected account</span>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => setManaging(s)}
              aria-label={`Manage subscription of ${s.email}`}
            >
              Manage Subscription
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => setGranting(s)}
              aria-label={`Grant a re-download to ${s.email}`}
            >
              Grant a re-download
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => setResetting(s)}
              aria-label={`Reset password of ${s.email}`}
            >
              Reset Password
            </Button>
            <Button size="sm" variant="outline" onClick={() => setReading(s)} aria-label={`History of ${s.email}`}>
              History
            </Button>
            <Button size="sm" variant="outline" onClick={() => setDeleting(s)} aria-label={`Delete ${s.email}`}>
              Delete
            </Button>
          </div>
        ),
    },
  ];

  return (
    <>
      <TabHeading
        title="Subscribers"
        description="Every account with its subscription. Put someone on a plan, end a subscription, grant a re-download of a lost movie, reset a password, read what support did for someone, or remove an account."
      />
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <Input
          label="Search subscribers"
          type="search"
          placeholder="Name, email or phone"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          className="w-full max-w-sm"
        />
        <p role="status" className="text-sm text-stone-600 dark:text-stone-400">
          {list.isSuccess && `${total} ${total === 1 ? 'account' : 'accounts'}${search ? ` matching “${search}”` : ''}`}
        </p>
      </div>

      {list.isError ? (
        <LoadFailure what="subscribers" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          rows={list.data?.subscribers ?? []}
          rowKey={(s) => s.id}
          caption="Subscribers"
          empty={search ? `No subscribers match “${search}”.` : 'No subscribers found.'}
          loading={list.isPending || list.isPlaceholderData}
        />
      )}
      {list.isSuccess && total > SUBSCRIBERS_PAGE_SIZE && (
        <Pager page={page} pageSize={SUBSCRIBERS_PAGE_SIZE} total={total} busy={list.isFetching} onPage={setPage} />
      )}

      <ManageSubscriptionDialog subscriber={managing} onClose={() => setManaging(null)} />
      <GrantRedownloadDialog subscriber={granting} onClose={() => setGranting(null)} />
      <ResetPasswordDialog subscriber={resetting} onClose={() => setResetting(null)} />
      <HistoryDialog subscriber={reading} onClose={() => setReading(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete subscriber?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => !remove.isPending && setDeleting(null)}
      >
        <p>
          Are you sure you want to delete subscriber "{deleting?.email}"? This will permanently remove their access to
          the platform.
        </p>
      </ConfirmDialog>
    </>
  );
}
