import { daysRemaining, formatDate } from '@filamu/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { CreditCardIcon, CrownIcon, DownloadIcon, FilmIcon, UserIcon } from '../../components/ui/icons.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { AGENT_PLAN_LABEL, DAYS_REMAINING_WARNING } from '../../lib/constants.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { useSession } from '../../lib/session.ts';
import { DownloadStatsCard } from './DownloadStatsCard.tsx';
import { Row } from './Row.tsx';

function QuickCard({
  to,
  title,
  text,
  icon,
  tone,
}: {
  to: string;
  title: string;
  text: string;
  icon: ReactNode;
  tone: string;
}) {
  return (
    <li>
      <Link
        to={to}
        className="group flex h-full items-start gap-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-400 dark:border-stone-800 dark:bg-stone-900"
      >
        <span className={cn('grid size-12 shrink-0 place-items-center rounded-xl', tone)}>{icon}</span>
        <span>
          <span className="block text-lg font-bold group-hover:text-brand-700 dark:group-hover:text-brand-300">
            {title}
          </span>
          <span className="mt-1 block text-sm text-stone-600 dark:text-stone-400">{text}</span>
        </span>
      </Link>
    </li>
  );
}

/** SPEC §2: plan, end date and days remaining (red at DAYS_REMAINING_WARNING or fewer); a Subscribe CTA otherwise. */
function SubscriptionStatusCard({
  subscribed,
  plan,
  endDate,
  days,
}: {
  subscribed: boolean;
  plan: string;
  endDate: string | null;
  days: number | null;
}) {
  const warn = days !== null && days <= DAYS_REMAINING_WARNING;
  return (
    <Card
      aria-labelledby="subscription-status"
      className={cn(
        'mt-8 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between',
        subscribed
          ? 'border-green-200 bg-green-50 dark:border-green-900 dark:bg-green-950/40'
          : 'border-brand-200 bg-brand-50 dark:border-brand-900 dark:bg-brand-950/40',
      )}
    >
      <div>
        <h2
          id="subscription-status"
          className="text-sm font-semibold uppercase tracking-wide text-stone-600 dark:text-stone-400"
        >
          Subscription status
        </h2>
        {subscribed ? (
          <>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-2xl font-extrabold">
              {plan} <Badge tone="success">Active</Badge>
            </p>
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">Ends {formatDate(endDate)}</p>
          </>
        ) : (
          <>
            <p className="mt-1 text-2xl font-extrabold">No active subscription</p>
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
              Subscribe with mobile money to unlock downloads.
            </p>
          </>
        )}
      </div>
      {subscribed ? (
        days !== null && (
          <Badge tone={warn ? 'danger' : 'success'} className="self-start px-3 py-1 text-sm sm:self-center">
            {days} {days === 1 ? 'day' : 'days'} remaining
          </Badge>
        )
      ) : (
        <LinkButton to="/subscription" size="lg" className="self-start sm:self-center">
          Subscribe Now
        </LinkButton>
      )}
    </Card>
  );
}

export default function DashboardPage() {
  const session = useSession();
  const isAgent = session.status === 'agent';
  const profile = useUserProfile(!isAgent);

  if (!isAgent && profile.isPending) return <PageSpinner label="Loading your dashboard" />;

  const user = isAgent ? null : profile.data;
  const agent = session.agent;
  const name = isAgent ? agent?.full_name || 'Agent' : user?.fullName || 'there';
  const subscribed = isAgent || !!user?.isSubscribed;
  const plan = isAgent ? AGENT_PLAN_LABEL : (user?.subscriptionPlan ?? 'Free Trial');
  const endDate = user?.subscription_end_date ?? null;
  // Counted here, not taken from the profile: a profile saved on the phone may be days old.
  const days = endDate ? daysRemaining(new Date(endDate), new Date()) : (user?.daysRemaining ?? null);
  const isAdmin = !!user?.isAdmin;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">Welcome, {name}</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          {subscribed ? 'Your library is ready. Enjoy your movie night!' : 'Subscribe to start downloading movies.'}
        </p>

        {profile.isError &&
          !isAgent &&
          (user ? (
            // The saved profile stays on screen offline; only a 401 signs out (docs/decisions/0040).
            <p role="status" className="mt-4 text-sm text-stone-600 dark:text-stone-400">
              Showing the details saved on this phone. They refresh when Filamu can be reached.
            </p>
          ) : (
            <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800 dark:bg-red-950 dark:text-red-200">
              Error: {errorMessage(profile.error, 'Could not load your account.')}
            </p>
          ))}

        {!isAgent && user && (
          <SubscriptionStatusCard subscribed={subscribed} plan={plan} endDate={endDate} days={days} />
        )}

        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <div className="space-y-6">
            <Card>
              <CardTitle>Account Status</CardTitle>
              <dl className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
                <Row label="Account type">{isAgent ? 'Agent' : 'User'}</Row>
                <Row label="Subscription">
                  <Badge tone={subscribed ? 'success' : 'neutral'}>{subscribed ? 'Active' : 'Inactive'}</Badge>
                </Row>
                <Row label="Plan">{plan}</Row>
                <Row label="End date">{isAgent ? 'N/A' : formatDate(endDate)}</Row>
                <Row label="Days remaining">
                  {days === null ? (
                    'N/A'
                  ) : (
                    <Badge tone={days <= DAYS_REMAINING_WARNING ? 'danger' : 'success'}>
                      {days} {days === 1 ? 'day' : 'days'}
                    </Badge>
                  )}
                </Row>
              </dl>
            </Card>
            <DownloadStatsCard isAgent={isAgent} />
          </div>

          <section aria-labelledby="quick-actions" className="lg:col-span-2">
            <h2 id="quick-actions" className="sr-only">
              Quick actions
            </h2>
            <ul className="grid gap-4 sm:grid-cols-2">
              <QuickCard
                to="/movies"
                title="Browse Movies"
                text="Kinayuganda and English movies, ready to download."
                icon={<FilmIcon className="size-6" />}
                tone="bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300"
              />
              <QuickCard
                to="/downloads"
                title="My Downloads"
                text="Movies on this phone: watch them offline or save them."
                icon={<DownloadIcon className="size-6" />}
                tone="bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300"
              />
              {!subscribed && (
                <QuickCard
                  to="/subscription"
                  title="Subscribe"
                  text="Pick a plan and pay with mobile money."
                  icon={<CreditCardIcon className="size-6" />}
                  tone="bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300"
                />
              )}
              <QuickCard
                to="/profile"
                title="Profile"
                text="Your details, subscription and security."
                icon={<UserIcon className="size-6" />}
                tone="bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300"
              />
              {isAdmin && (
                <QuickCard
                  to="/admin"
                  title="Admin Panel"
                  text="Movies, subscribers, plans, agents and analytics."
                  icon={<CrownIcon className="size-6" />}
                  tone="bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300"
                />
              )}
            </ul>
          </section>
        </div>
      </main>
    </div>
  );
}
