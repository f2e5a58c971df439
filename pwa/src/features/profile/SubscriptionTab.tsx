import { formatDateTime, type UserProfile } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { PaymentHistoryList } from '../payments/PaymentHistoryList.tsx';
import { accessOf, NO_PLAN_LABEL, STAFF_ACCESS_LABEL } from './access.ts';
import { NO_PLAN_FACTS, planBenefits, STAFF_BENEFITS } from './benefits.ts';
import { BenefitList } from './BenefitList.tsx';
import { PlanTimeLeft } from './PlanTimeLeft.tsx';

/** The list under the plan: staff rules, the plan's own features, or what an account without a plan can do. */
function benefitsOf(user: UserProfile, access: ReturnType<typeof accessOf>) {
  if (access === 'staff' || access === 'agent')
    return { heading: 'Your access', label: 'Staff access benefits', items: STAFF_BENEFITS };
  if (access === 'subscriber') {
    const plan = user.subscriptionPlan;
    return {
      heading: plan ? `The ${plan} plan includes` : 'Your plan includes',
      label: 'Your plan’s benefits',
      items: planBenefits(user.subscriptionPlanFeatures),
    };
  }
  return { heading: 'Without a plan you can', label: 'Without a plan', items: NO_PLAN_FACTS };
}

function Term({ children }: { children: string }) {
  return <dt className="text-sm text-stone-600 dark:text-stone-400">{children}</dt>;
}

/**
 * Profile → Subscription (product §2). Subscribers get a way to renew or change plan (/subscription), others
 * Choose a plan; admins are staff with full access and are offered nothing to buy (decision 0035).
 */
export function SubscriptionTab({ user }: { user: UserProfile }) {
  const access = accessOf(user, false);
  const benefits = benefitsOf(user, access);
  return (
    <div className="space-y-6">
      <Card>
        <CardTitle>Subscription</CardTitle>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="min-w-0">
            <Term>Current plan</Term>
            <dd className="mt-1 break-words text-lg font-bold">
              {access === 'staff' ? `${STAFF_ACCESS_LABEL} — full library` : (user.subscriptionPlan ?? NO_PLAN_LABEL)}
            </dd>
          </div>
          <div>
            <Term>Status</Term>
            <dd className="mt-1">
              {access === 'free' ? <Badge tone="neutral">Inactive</Badge> : <Badge tone="success">Active</Badge>}
            </dd>
          </div>
          {access === 'subscriber' && (
            <>
              <div>
                <Term>End date</Term>
                <dd className="mt-1 font-semibold">{formatDateTime(user.subscription_end_date)} (Kampala time)</dd>
              </div>
              {user.subscription_end_date && (
                <div>
                  <Term>Time left</Term>
                  <dd className="mt-1">
                    <PlanTimeLeft endDate={user.subscription_end_date} />
                  </dd>
                </div>
              )}
            </>
          )}
        </dl>
        {access === 'staff' && (
          <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
            Admins download from the whole library without a subscription.
          </p>
        )}
        <h3 className="mt-6 font-semibold">{benefits.heading}</h3>
        <div className="mt-3">
          <BenefitList items={benefits.items} label={benefits.label} />
        </div>
        {access !== 'staff' && (
          <div className="mt-6">
            {access === 'subscriber' ? (
              // The product's "Manage Subscription" had no action; renewing or changing plan happens on /subscription.
              <LinkButton to="/subscription">Renew or change plan</LinkButton>
            ) : (
              <LinkButton to="/subscription">Choose a plan</LinkButton>
            )}
          </div>
        )}
      </Card>
      <PaymentHistoryList />
    </div>
  );
}
