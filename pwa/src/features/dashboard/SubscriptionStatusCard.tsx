import { formatDateTime } from '../../lib/dates.ts';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { AGENT_PLAN_LABEL } from '../../lib/constants.ts';
import { useWaitingPayment } from '../payments/queries.ts';
import { STAFF_ACCESS_LABEL, type Access } from '../profile/access.ts';
import { PlanTimeLeft } from '../profile/PlanTimeLeft.tsx';
import { useDashboardT } from './messages.ts';

/** Full access without a subscription: what the card says instead of a plan (decision 0035). */
const STAFF_WORDING: Record<'staff' | 'agent', { title: string; text: string }> = {
  staff: { title: `${STAFF_ACCESS_LABEL} — full library`, text: 'Admins download without a subscription.' },
  // English waits for the Kinayuganda movies for agents too (api/src/features/movies/entitlement.ts).
  agent: {
    title: AGENT_PLAN_LABEL,
    text: 'Every movie without a subscription; English opens once the Kinayuganda movies are downloaded.',
  },
};

/**
 * product §2: plan, its exact end (Kampala time) and the days and hours left (red in the last days); a Subscribe CTA
 * for people without a subscription. Staff and agents are told they have full access and offered nothing to buy.
 */
export function SubscriptionStatusCard({
  access,
  plan,
  endDate,
}: {
  access: Access;
  plan: string;
  endDate: string | null;
}) {
  const t = useDashboardT();
  const free = access === 'free';
  // A payment waiting for the phone is finished or cancelled from its own card; a second purchase would be refused.
  const waiting = useWaitingPayment(free);
  return (
    <Card
      role="region"
      aria-labelledby="subscription-status"
      className={cn(
        'mt-8 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between',
        free
          ? 'border-brand-200 bg-brand-50 dark:border-brand-900 dark:bg-brand-950/40'
          : 'border-green-200 bg-green-50 dark:border-green-900 dark:bg-green-950/40',
      )}
    >
      <div className="min-w-0">
        <h2
          id="subscription-status"
          className="text-sm font-semibold uppercase tracking-wide text-stone-700 dark:text-stone-300"
        >
          {t('dashboard.subscription.title')}
        </h2>
        {access === 'staff' || access === 'agent' ? (
          <>
            <p className="mt-1 flex flex-wrap items-center gap-2 break-words text-2xl font-extrabold">
              {STAFF_WORDING[access].title} <Badge tone="success">Active</Badge>
            </p>
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{STAFF_WORDING[access].text}</p>
          </>
        ) : access === 'subscriber' ? (
          <>
            <p className="mt-1 flex flex-wrap items-center gap-2 break-words text-2xl font-extrabold">
              {plan} <Badge tone="success">{t('dashboard.subscription.active')}</Badge>
            </p>
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
              {t('dashboard.subscription.ends', { date: formatDateTime(endDate) })}
            </p>
          </>
        ) : (
          <>
            <p className="mt-1 text-2xl font-extrabold">{t('dashboard.subscription.none')}</p>
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{t('dashboard.subscription.noneText')}</p>
          </>
        )}
      </div>
      {access === 'subscriber' && endDate && (
        <PlanTimeLeft endDate={endDate} className="self-start px-3 py-1 text-sm sm:self-center" />
      )}
      {free && !waiting.data && (
        <LinkButton to="/subscription" size="lg" className="self-start sm:self-center">
          {t('dashboard.subscription.subscribe')}
        </LinkButton>
      )}
    </Card>
  );
}
