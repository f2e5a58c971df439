import { Link } from 'react-router';
import { ENGLISH_UNLOCK_RULE, PLAN_END_RULE, PLAN_NEAR_END_RULE } from '@filamu/shared';
import { SUPPORT } from '../../lib/constants.ts';
import { usePagesT } from './messages.ts';
import { Section, StaticPageLayout } from './StaticPageLayout.tsx';

export default function TermsPage() {
  const t = usePagesT();
  return (
    <StaticPageLayout title={t('pages.terms.title')} updated={t('pages.date.november2026')} legal>
      <p>
        These terms govern your use of Filamu, a movie download service for Uganda. By creating an account or using the
        service you agree to them. If you do not agree, please do not use Filamu.
      </p>
      <Section title={t('pages.terms.s1')}>
        <ul>
          <li>
            You must be at least 13 years old to create an account. Users under 18 need the consent of a parent or
            guardian.
          </li>
          <li>
            You register with your full name, email address, a Uganda mobile number and a password, and you keep these
            details accurate.
          </li>
          <li>
            Only one device can be logged in to an account at a time. Signing in on a new device signs the previous
            device out.
          </li>
          <li>You are responsible for keeping your password secret and for everything done with your account.</li>
        </ul>
      </Section>
      <Section title={t('pages.terms.s2')}>
        <ul>
          <li>Subscriptions are paid in Uganda Shillings (UGX) with MTN Mobile Money or Airtel Money.</li>
          <li>{PLAN_END_RULE}</li>
          <li>{PLAN_NEAR_END_RULE}</li>
          <li>
            Mobile money payments are one-time payments and are not recurring: your plan does not renew automatically.
            To continue, you pay again.
          </li>
          <li>We may change plan prices; a new price applies no earlier than 30 days after we notify you.</li>
          <li>
            Refunds are handled under our <Link to="/refund-cancellation">Refund and Cancellation Policy</Link>.
          </li>
        </ul>
      </Section>
      <Section title={t('pages.terms.s3')}>
        <ul>
          <li>
            Your subscription lets you download the movies included in your plan for personal, non-commercial viewing.
          </li>
          <li>Each movie can be downloaded once per account. {ENGLISH_UNLOCK_RULE}</li>
          <li>
            Downloaded movies are encrypted: they play only in Filamu, with a licence for you and the phone they were
            downloaded to. A copy made with Keep a copy opens only in Filamu too.
          </li>
          <li>
            You may not copy, share, sell, re-upload, broadcast or publicly screen downloaded movies, or try to get
            around download protections.
          </li>
          <li>
            Movies carry maturity ratings (All, PG, 13+, 18+). Parents and guardians are responsible for what minors
            watch.
          </li>
        </ul>
      </Section>
      <Section title={t('pages.terms.s4')}>
        <p>
          We work to keep Filamu available around the clock, but it may occasionally be interrupted for maintenance or
          by events outside our control. Movies may be added to or removed from the library at any time.
        </p>
      </Section>
      <Section title={t('pages.terms.s5')}>
        <p>
          We may suspend or close accounts that break these terms, share content unlawfully or abuse the service. You
          may stop using Filamu and ask us to delete your account at any time — see our{' '}
          <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
      </Section>
      <Section title={t('pages.terms.s6')}>
        <p>
          Filamu is provided as is. To the extent permitted by the laws of Uganda, we are not liable for indirect
          losses, data charges from your network provider, or problems caused by your device.
        </p>
      </Section>
      <Section title={t('pages.terms.s7')}>
        <p>
          Questions about these terms? Email <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a> or call{' '}
          <a href={SUPPORT.phoneHref}>{SUPPORT.phone}</a>.
        </p>
      </Section>
    </StaticPageLayout>
  );
}
