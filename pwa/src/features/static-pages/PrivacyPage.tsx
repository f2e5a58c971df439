import { SUPPORT } from '../../lib/constants.ts';
import { usePagesT } from './messages.ts';
import { Section, StaticPageLayout } from './StaticPageLayout.tsx';

export default function PrivacyPage() {
  const t = usePagesT();
  return (
    <StaticPageLayout title={t('pages.privacy.title')} updated={t('pages.date.january2026')} legal>
      <p>
        This policy explains what personal data Filamu collects, why, and the choices you have. We handle your data in
        line with the Data Protection and Privacy Act of Uganda.
      </p>
      <Section title={t('pages.privacy.collect')}>
        <ul>
          <li>Account details: full name, email address, Uganda mobile number and a securely hashed password.</li>
          <li>
            Subscription details: your plan, payment references and dates. We never see or store your mobile money PIN.
          </li>
          <li>Download history: which movies you downloaded, when, and their sizes.</li>
          <li>A random device identifier, so that only one device is logged in to your account at a time.</li>
        </ul>
      </Section>
      <Section title={t('pages.privacy.use')}>
        <ul>
          <li>To run your account, activate subscriptions and deliver the movies you download.</li>
          <li>To protect your account and our content, including single-device login and protected download links.</li>
          <li>To send receipts and important service messages. We do not sell your data.</li>
        </ul>
      </Section>
      <Section title={t('pages.privacy.sharing')}>
        <p>
          We share only what is needed with the payment providers that process your mobile money payment, and with
          hosting providers that run the service for us. We disclose data to authorities only when the law requires it.
        </p>
      </Section>
      <Section title={t('pages.privacy.children')}>
        <p>Filamu is not meant for children under 13, and we do not knowingly collect their data.</p>
      </Section>
      <Section title={t('pages.privacy.rights')}>
        <ul>
          <li>You can view and correct your name and email on your profile page at any time.</li>
          <li>
            You can ask us to delete your account and personal data by emailing{' '}
            <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>. We delete it within 24 hours of confirming the
            request, except records we must keep by law (such as payment records).
          </li>
        </ul>
      </Section>
      <Section title={t('pages.privacy.security')}>
        <p>Passwords are stored hashed, connections are encrypted, and download links expire quickly.</p>
      </Section>
      <Section title={t('pages.privacy.contact')}>
        <p>
          Privacy questions: <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a> ·{' '}
          <a href={SUPPORT.phoneHref}>{SUPPORT.phone}</a>
        </p>
      </Section>
    </StaticPageLayout>
  );
}
