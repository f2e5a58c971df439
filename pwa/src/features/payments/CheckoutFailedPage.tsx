import { SUPPORT } from '@filamu/shared';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { buttonClasses, LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { ChatIcon, MailIcon, PhoneIcon, XIcon } from '../../components/ui/icons.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2.5">
      <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="min-w-0 text-right font-semibold break-words">{children}</dd>
    </div>
  );
}

export default function CheckoutFailedPage() {
  const [params] = useSearchParams();
  const error = params.get('error') || 'Unknown error.';
  const reference = params.get('transaction_id') || 'N/A';
  const planName = params.get('plan_name') || 'N/A';

  return (
    <div className="min-h-screen">
      <AppHeader />
      <main id="main" className="mx-auto max-w-lg px-4 py-10 sm:px-6">
        <Card>
          <div className="text-center">
            <span className="mx-auto grid size-16 place-items-center rounded-full bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300">
              <XIcon className="size-8" />
            </span>
            <h1 className="mt-4 text-3xl font-extrabold tracking-tight">Payment Failed</h1>
            <p className="mt-2 text-stone-700 dark:text-stone-300">
              We couldn&apos;t complete your payment. You have not been charged for a subscription.
            </p>
          </div>
          <dl className="mt-6 divide-y divide-stone-200 text-sm dark:divide-stone-800">
            <Row label="Plan">{planName}</Row>
            <Row label="Reference">
              <span className="font-mono break-all">{reference}</span>
            </Row>
            <Row label="Error">
              <span className="text-red-700 dark:text-red-400">{error}</span>
            </Row>
          </dl>
          <h2 className="mt-6 font-semibold">Common reasons</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700 dark:text-stone-300">
            <li>Insufficient funds on your mobile money account</li>
            <li>Network issues while confirming the payment</li>
            <li>The payment service was temporarily unavailable</li>
          </ul>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <LinkButton to="/subscription" size="lg" className="flex-1">
              Try Again
            </LinkButton>
            <a
              href={SUPPORT.whatsappHref}
              target="_blank"
              rel="noreferrer"
              className={buttonClasses('outline', 'lg', 'flex-1')}
            >
              <ChatIcon className="size-5" /> Contact Support
            </a>
          </div>
          <div className="mt-6 space-y-2 border-t border-stone-200 pt-4 text-sm dark:border-stone-800">
            <p className="flex items-center gap-2">
              <PhoneIcon className="size-4 shrink-0" />
              <a href={SUPPORT.phoneHref} className="underline">
                {SUPPORT.phone}
              </a>
            </p>
            <p className="flex items-center gap-2">
              <MailIcon className="size-4 shrink-0" />
              <a href={`mailto:${SUPPORT.email}`} className="underline">
                {SUPPORT.email}
              </a>
            </p>
          </div>
        </Card>
      </main>
    </div>
  );
}
