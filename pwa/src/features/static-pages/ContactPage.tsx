import type { ReactNode } from 'react';
import { ChatIcon, MailIcon, MapPinIcon, PhoneIcon, ShieldIcon } from '../../components/ui/icons.tsx';
import { SUPPORT } from '../../lib/constants.ts';
import { usePagesT } from './messages.ts';
import { StaticPageLayout } from './StaticPageLayout.tsx';

function ContactCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4 rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900">
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
        {icon}
      </span>
      <div>
        <h2 className="!text-base">{title}</h2>
        <div className="mt-1 space-y-1">{children}</div>
      </div>
    </li>
  );
}

export default function ContactPage() {
  const t = usePagesT();
  return (
    <StaticPageLayout title={t('pages.contact.title')}>
      <p>{t('pages.contact.intro')}</p>
      <ul className="grid !list-none gap-4 sm:grid-cols-2 [&>li]:!ml-0 [&>li]:!list-none">
        <ContactCard icon={<MailIcon />} title={t('pages.contact.email')}>
          <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>
        </ContactCard>
        <ContactCard icon={<ShieldIcon />} title={t('pages.contact.dmca')}>
          <a href={`mailto:${SUPPORT.dmcaEmail}`}>{SUPPORT.dmcaEmail}</a>
        </ContactCard>
        <ContactCard icon={<PhoneIcon />} title={t('pages.contact.phone')}>
          <p className="!mt-0">
            <a href={SUPPORT.phoneHref}>{SUPPORT.phone}</a>
          </p>
          <p className="!mt-0">
            <a href={SUPPORT.secondPhoneHref}>{SUPPORT.secondPhone}</a>
          </p>
        </ContactCard>
        <ContactCard icon={<ChatIcon />} title="WhatsApp">
          <a href={SUPPORT.whatsappHref} target="_blank" rel="noopener noreferrer">
            {t('pages.contact.whatsappChat')}
          </a>
        </ContactCard>
        <ContactCard icon={<MapPinIcon />} title={t('pages.contact.office')}>
          <p className="!mt-0">{SUPPORT.office}</p>
          <a href={SUPPORT.mapHref} target="_blank" rel="noopener noreferrer">
            {t('pages.contact.map')}
          </a>
        </ContactCard>
      </ul>
    </StaticPageLayout>
  );
}
