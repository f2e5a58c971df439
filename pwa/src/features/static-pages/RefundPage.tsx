import { PLAN_END_RULE, PLAN_NEAR_END_RULE } from '@filamu/shared';
import { SUPPORT } from '../../lib/constants.ts';
import { usePagesT } from './messages.ts';
import { Section, StaticPageLayout } from './StaticPageLayout.tsx';

export default function RefundPage() {
  const t = usePagesT();
  return (
    <StaticPageLayout title={t('pages.refund.title')} updated={t('pages.date.november2026')} legal>
      <p>
        We want every Filamu subscription to be worth it. This policy explains when you can cancel and when you can get
        your money back.
      </p>
      <Section title={t('pages.refund.cancellation')}>
        <ul>
          <li>
            Mobile money payments are one-time and not recurring, so there is nothing to cancel to stop future charges:
            your plan simply ends at the end of its period.
          </li>
          <li>{PLAN_END_RULE}</li>
          <li>{PLAN_NEAR_END_RULE}</li>
          <li>
            If you stop using Filamu before your plan ends, you keep access until the end date and time shown on your
            dashboard.
          </li>
        </ul>
      </Section>
      <Section title={t('pages.refund.when')}>
        <ul>
          <li>You were charged but your subscription was never activated.</li>
          <li>You were charged twice for the same plan.</li>
          <li>A technical outage on our side left you without access for more than 72 consecutive hours.</li>
        </ul>
      </Section>
      <Section title={t('pages.refund.whenNot')}>
        <ul>
          <li>We do not give partial refunds for unused days of a plan.</li>
          <li>Movies already downloaded, a change of mind, or problems caused by your device or network provider.</li>
          <li>Accounts suspended for breaking our Terms of Use.</li>
        </ul>
      </Section>
      <Section title={t('pages.refund.claim')}>
        <ul>
          <li>Make your claim within 15 days of the payment.</li>
          <li>
            Email <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a> or call{' '}
            <a href={SUPPORT.phoneHref}>{SUPPORT.phone}</a> with your registered phone number and the mobile money
            transaction reference.
          </li>
          <li>Approved refunds are paid back to the mobile money number that paid, within 7 to 10 business days.</li>
        </ul>
      </Section>
      <Section title={t('pages.refund.prices')}>
        <p>
          We announce price changes in advance. A new price applies no earlier than 30 days after notice and never to a
          plan you have already paid for.
        </p>
      </Section>
    </StaticPageLayout>
  );
}
