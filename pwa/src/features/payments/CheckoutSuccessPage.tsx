import { formatUgx, SUPPORT } from '@filamu/shared';
import { useEffect, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { ChatIcon, CheckIcon, DownloadIcon } from '../../components/ui/icons.tsx';
import { refreshUserProfile } from '../../lib/queries.ts';
import { useSession, useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2.5">
      <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="min-w-0 text-right font-semibold break-all">{children}</dd>
    </div>
  );
}

export default function CheckoutSuccessPage() {
  const [params] = useSearchParams();
  const { user } = useSession();
  const planName = params.get('plan_name') || 'N/A';
  const amount = params.get('amount');
  const transactionId = params.get('transaction_id') || 'N/A';
  const done = useRef(false);

  // Refresh the profile so the subscription shows active everywhere.
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    toast.success('Subscription Activated!', 'Your subscription has been activated.');
    if (useSessionStore.getState().token) {
      void refreshUserProfile().catch((error: unknown) => console.error('Profile refresh failed', error));
    }
  }, []);

  const shownAmount = amount && /^\d+(\.\d+)?$/.test(amount) ? formatUgx(amount) : amount || 'N/A';

  return (
    <div className="min-h-screen">
      <AppHeader />
      <main id="main" className="mx-auto max-w-lg px-4 py-10 sm:px-6">
        <Card className="text-center">
          <span className="mx-auto grid size-16 place-items-center rounded-full bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300">
            <CheckIcon className="size-8" />
          </span>
          <h1 className="mt-4 text-3xl font-extrabold tracking-tight">Payment Successful!</h1>
          <p className="mt-2 text-stone-700 dark:text-stone-300">
            Welcome, {user?.fullName ?? 'there'}! Your subscription has been activated.
          </p>
          <dl className="mt-6 divide-y divide-stone-200 text-left text-sm dark:divide-stone-800">
            <Row label="Plan">{planName}</Row>
            <Row label="Amount">{shownAmount}</Row>
            <Row label="Transaction ID">
              <span className="font-mono">{transactionId}</span>
            </Row>
          </dl>
          <LinkButton to="/dashboard" size="lg" className="mt-6 w-full">
            <DownloadIcon className="size-5" /> Start Downloading
          </LinkButton>
          <a
            href={SUPPORT.whatsappHref}
            target="_blank"
            rel="noreferrer"
            className="mt-4 inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 underline dark:text-brand-300"
          >
            <ChatIcon className="size-4" /> Need help? Chat with support
          </a>
        </Card>
      </main>
    </div>
  );
}
