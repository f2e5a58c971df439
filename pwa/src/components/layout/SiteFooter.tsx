import { Link } from 'react-router';
import { SUPPORT } from '../../lib/constants.ts';
import { useT, type WebMessageId } from '../../lib/i18n.ts';
import { LogoMark } from '../ui/Logo.tsx';

const POLICY_LINKS: Array<{ to: string; label: WebMessageId }> = [
  { to: '/terms', label: 'footer.terms' },
  { to: '/privacy-policy', label: 'footer.privacy' },
  { to: '/refund-cancellation', label: 'footer.refund' },
  { to: '/dmca-policy', label: 'footer.dmca' },
  { to: '/contact-us', label: 'footer.contactUs' },
];

const linkClass = 'rounded text-stone-600 hover:text-brand-700 dark:text-stone-400 dark:hover:text-brand-300';

export function SiteFooter() {
  const t = useT();
  return (
    <footer className="border-t border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-950">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3 sm:px-6">
        <div>
          <p className="flex items-center gap-2 text-lg font-extrabold">
            <LogoMark className="size-7" /> Filamu
          </p>
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.policies')}>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-500 dark:text-stone-400">
            {t('footer.policies')}
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            {POLICY_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className={linkClass}>
                  {t(l.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-500 dark:text-stone-400">
            {t('footer.contact')}
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a href={SUPPORT.phoneHref} className={linkClass}>
                {SUPPORT.phone}
              </a>
            </li>
            <li>
              <a href={`mailto:${SUPPORT.email}`} className={linkClass}>
                {SUPPORT.email}
              </a>
            </li>
            <li>
              <a href={SUPPORT.whatsappHref} target="_blank" rel="noopener noreferrer" className={linkClass}>
                {t('footer.whatsapp')}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <p className="border-t border-stone-200 px-4 py-4 text-center text-xs text-stone-500 dark:border-stone-800 dark:text-stone-400">
        {t('footer.copyright', { year: String(new Date().getFullYear()) })}
      </p>
    </footer>
  );
}
