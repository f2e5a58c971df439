import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { CreditCardIcon, CrownIcon, DownloadIcon, FilmIcon, UserIcon } from '../../components/ui/icons.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { AGENT_PLAN_LABEL } from '../../lib/constants.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { useSession } from '../../lib/session.ts';
import { accessOf, noPlanLabel, STAFF_ACCESS_LABEL } from '../profile/access.ts';
import { ConfirmPhoneNotice } from '../profile/ConfirmPhoneNotice.tsx';
import { PushPrompt } from '../push/PushPrompt.tsx';
import { WaitingPaymentCard } from '../payments/WaitingPaymentCard.tsx';
import { ContinueWatching } from '../downloads/ContinueWatching.tsx';
import { AccountStatusCard } from './AccountStatusCard.tsx';
import { useDashboardT } from './messages.ts';
import { DownloadStatsCard } from './DownloadStatsCard.tsx';
import { QuickCard } from './QuickCard.tsx';
import { SubscriptionStatusCard } from './SubscriptionStatusCard.tsx';

export default function DashboardPage() {
  const t = useDashboardT();
  useDocumentTitle(t('dashboard.docTitle'));
  const session = useSession();
  const isAgent = session.status === 'agent';
  const profile = useUserProfile(!isAgent);

  if (!isAgent && profile.isPending) return <PageSpinner label={t('dashboard.loading')} />;

  const user = isAgent ? null : profile.data;
  const access = accessOf(user ?? null, isAgent);
  const agent = session.agent;
  const name = isAgent ? agent?.full_name || 'Agent' : user?.fullName || t('dashboard.there');
  const plan =
    access === 'agent'
      ? AGENT_PLAN_LABEL
      : access === 'staff'
        ? STAFF_ACCESS_LABEL
        : (user?.subscriptionPlan ?? noPlanLabel());
  const endDate = user?.subscription_end_date ?? null;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="break-words text-3xl font-extrabold tracking-tight">{t('dashboard.welcome', { name })}</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          {access === 'free' ? t('dashboard.lead.free') : t('dashboard.lead.ready')}
        </p>

        {profile.isError &&
          !isAgent &&
          (user ? (
            // The saved profile stays on screen offline; only a 401 signs out (docs/decisions/0040).
            <p role="status" className="mt-4 text-sm text-stone-600 dark:text-stone-400">
              {t('dashboard.savedDetails')}
            </p>
          ) : (
            <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800 dark:bg-red-950 dark:text-red-200">
              {t('dashboard.error', { reason: errorMessage(profile.error, t('dashboard.loadAccountFailed')) })}
            </p>
          ))}

        {user && !isAgent && <WaitingPaymentCard className="mt-6" />}
        {user && !isAgent && <ConfirmPhoneNotice user={user} className="mt-6" />}
        {(isAgent || user) && <SubscriptionStatusCard access={access} plan={plan} endDate={endDate} />}

        <PushPrompt className="mt-6" />

        <ContinueWatching className="mt-8" />

        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 space-y-6">
            <AccountStatusCard
              access={access}
              contact={isAgent ? (agent?.email ?? null) : (user?.email ?? null)}
              memberSince={user?.createdAt ?? null}
            />
            <DownloadStatsCard isAgent={isAgent} />
          </div>

          <section aria-labelledby="quick-actions" className="min-w-0 lg:col-span-2">
            <h2 id="quick-actions" className="sr-only">
              {t('dashboard.quickActions')}
            </h2>
            <ul className="grid gap-4 sm:grid-cols-2">
              <QuickCard
                to="/movies"
                title={t('dashboard.quick.movies.title')}
                text={t('dashboard.quick.movies.text')}
                icon={<FilmIcon className="size-6" />}
                tone="bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300"
              />
              <QuickCard
                to="/downloads"
                title={t('dashboard.quick.downloads.title')}
                text={t('dashboard.quick.downloads.text')}
                icon={<DownloadIcon className="size-6" />}
                tone="bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300"
              />
              {/* Product §2: only for non-subscribers who are not agents; admins are staff and never buy either. */}
              {access === 'free' && (
                <QuickCard
                  to="/subscription"
                  title={t('dashboard.quick.subscribe.title')}
                  text={t('dashboard.quick.subscribe.text')}
                  icon={<CreditCardIcon className="size-6" />}
                  tone="bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300"
                />
              )}
              <QuickCard
                to="/profile"
                title={t('dashboard.quick.profile.title')}
                text={t('dashboard.quick.profile.text')}
                icon={<UserIcon className="size-6" />}
                tone="bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300"
              />
              {access === 'staff' && (
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
