import { type UserProfile } from '@filamu/shared';
import { formatDateTime } from '../../lib/dates.ts';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { PaymentHistoryList } from '../payments/PaymentHistoryList.tsx';
import { accessOf, noPlanLabel } from './access.ts';
import { noPlanFacts, planBenefits, staffBenefits } from './benefits.ts';
import { BenefitList } from './BenefitList.tsx';
import { profileT, useProfileT } from './messages.ts';
import { PlanTimeLeft } from './PlanTimeLeft.tsx';

/** The list under the plan: staff rules, the plan's own features, or what an account without a plan can do. */
function benefitsOf(user: UserProfile, access: ReturnType<typeof accessOf>) {
  if (access === 'staff' || access === 'agent')
    return {
      heading: profileT('profile.sub.heading.staff'),
      label: profileT('profile.sub.label.staff'),
      items: staffBenefits(),
    };
  if (access === 'subscriber') {
    const plan = user.subscriptionPlan;
    return {
      heading: plan ? profileT('profile.sub.heading.plan', { plan }) : profileT('profile.sub.heading.yourPlan'),
      label: profileT('profile.sub.label.plan'),
      items: planBenefits(user.subscriptionPlanFeatures),
    };
  }
  return {
    heading: profileT('profile.sub.heading.free'),
    label: profileT('profile.sub.label.free'),
    items: noPlanFacts(),
  };
}

function Term({ children }: { children: string }) {
  return <dt className="text-sm text-stone-600 dark:text-stone-400">{children}</dt>;
}

/**
 * Profile → Subscription (product §2). Subscribers get a way to renew or change plan (/subscription), others
 * Choose a plan; admins are staff with full access and are offered nothing to buy (decision 0035).
 */
export function SubscriptionTab({ user }: { user: UserProfile }) {
  const t = useProfileT();
  const access = accessOf(user, false);
  const benefits = benefitsOf(user, access);
  return (
    <div className="space-y-6">
      <Card>
        <CardTitle>{t('profile.tab.subscription')}</CardTitle>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="min-w-0">
            <Term>{t('profile.sub.current')}</Term>
            <dd className="mt-1 break-words text-lg font-bold">
              {access === 'staff' ? t('profile.sub.staffPlan') : (user.subscriptionPlan ?? noPlanLabel())}
            </dd>
          </div>
          <div>
            <Term>{t('profile.sub.status')}</Term>
            <dd className="mt-1">
              {access === 'free' ? (
                <Badge tone="neutral">{t('profile.sub.inactive')}</Badge>
              ) : (
                <Badge tone="success">{t('profile.sub.active')}</Badge>
              )}
            </dd>
          </div>
          {access === 'subscriber' && (
            <>
              <div>
                <Term>{t('profile.sub.endDate')}</Term>
                <dd className="mt-1 font-semibold">
                  {t('profile.sub.endDate.value', { date: formatDateTime(user.subscription_end_date) })}
                </dd>
              </div>
              {user.subscription_end_date && (
                <div>
                  <Term>{t('profile.sub.timeLeft')}</Term>
                  <dd className="mt-1">
                    <PlanTimeLeft endDate={user.subscription_end_date} />
                  </dd>
                </div>
              )}
            </>
          )}
        </dl>
        {access === 'staff' && (
          <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">{t('profile.sub.staffNote')}</p>
        )}
        <h3 className="mt-6 font-semibold">{benefits.heading}</h3>
        <div className="mt-3">
          <BenefitList items={benefits.items} label={benefits.label} />
        </div>
        {access !== 'staff' && (
          <div className="mt-6">
            {access === 'subscriber' ? (
              // The product's "Manage Subscription" had no action; renewing or changing plan happens on /subscription.
              <LinkButton to="/subscription">{t('profile.sub.renew')}</LinkButton>
            ) : (
              <LinkButton to="/subscription">{t('profile.sub.choose')}</LinkButton>
            )}
          </div>
        )}
      </Card>
      <PaymentHistoryList />
    </div>
  );
}
