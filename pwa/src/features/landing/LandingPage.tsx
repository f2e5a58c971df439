import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SiteFooter } from '../../components/layout/SiteFooter.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { ChatIcon, DownloadIcon, PhoneIcon, ShieldIcon, StarIcon } from '../../components/ui/icons.tsx';
import { LogoMark } from '../../components/ui/Logo.tsx';
import { isLandingPath, LanguageSwitch, landingPathFor } from '../../components/ui/LanguageSwitch.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { SUPPORT } from '../../lib/constants.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useLocale, useT, type WebMessageId } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { useSession } from '../../lib/session.ts';
import { Hero } from './Hero.tsx';

const FEATURES = [
  { title: 'landing.feature.keep.title', text: 'landing.feature.keep.text', Icon: DownloadIcon },
  { title: 'landing.feature.secure.title', text: 'landing.feature.secure.text', Icon: ShieldIcon },
  { title: 'landing.feature.vj.title', text: 'landing.feature.vj.text', Icon: StarIcon },
] as const satisfies ReadonlyArray<{ title: WebMessageId; text: WebMessageId; Icon: unknown }>;

/**
 * How Filamu works, where the page once had invented figures ("10K+ movies", "99.9% uptime"). The landing is
 * prerendered for every visitor, so it carries no counts at all: each line here is true by how the product is
 * built, whatever the library holds today (docs/decisions/0184).
 */
const FACTS = [
  { headline: 'landing.fact.money.headline', label: 'landing.fact.money.label' },
  { headline: 'landing.fact.offline.headline', label: 'landing.fact.offline.label' },
  { headline: 'landing.fact.renewal.headline', label: 'landing.fact.renewal.label' },
  { headline: 'landing.fact.sizes.headline', label: 'landing.fact.sizes.label' },
] as const satisfies ReadonlyArray<{ headline: WebMessageId; label: WebMessageId }>;

const navLink =
  'whitespace-nowrap rounded-lg px-2 py-2 sm:px-3 text-sm font-semibold text-white hover:bg-white/15 focus-visible:outline-white';

function HeaderNav() {
  const t = useT();
  const { status, isAdmin } = useSession();
  if (status === 'loading') return null;
  if (status === 'guest') {
    return (
      <>
        <Link to="/login" className={navLink}>
          {t('nav.login')}
        </Link>
        <Link
          to="/register"
          className="whitespace-nowrap rounded-lg bg-white px-2 py-2 text-sm sm:px-3 font-semibold text-stone-950 hover:bg-brand-100 focus-visible:outline-white"
        >
          {t('nav.getStarted')}
        </Link>
      </>
    );
  }
  return (
    <>
      {isAdmin && (
        <Link to="/admin" className={navLink}>
          {t('nav.admin')}
        </Link>
      )}
      <Link
        to="/dashboard"
        className="whitespace-nowrap rounded-lg bg-white px-2 py-2 text-sm sm:px-3 font-semibold text-stone-950 hover:bg-brand-100 focus-visible:outline-white"
      >
        {t('nav.dashboard')}
      </Link>
    </>
  );
}

/**
 * The landing has an address per language (`/`, `/lg`), each prerendered in it (decision 0258): once the app runs,
 * the address follows the language this phone asks for.
 */
function useLandingAddressFollowsLanguage() {
  const locale = useLocale();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    const wanted = landingPathFor(locale);
    const here = pathname === '/lg/' ? '/lg' : pathname;
    if (hydrated && isLandingPath(pathname) && here !== wanted) void navigate(wanted, { replace: true });
  }, [hydrated, locale, navigate, pathname]);
}

export function LandingPage() {
  const t = useT();
  const locale = useLocale();
  const { status, hasAccess } = useSession();
  useDocumentTitle(null);
  useLandingAddressFollowsLanguage();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="absolute inset-x-0 top-0 z-20">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-3 py-4 sm:gap-3 sm:px-6">
          <Link
            to={landingPathFor(locale)}
            className="inline-flex items-center gap-1.5 rounded-lg text-lg font-extrabold tracking-tight text-white sm:gap-2 sm:text-xl focus-visible:outline-white"
          >
            <LogoMark />
            <span className="max-[379px]:sr-only">Filamu</span>
          </Link>
          <nav aria-label={t('nav.main')} className="flex items-center gap-0.5 sm:gap-2">
            <LanguageSwitch />
            <ThemeToggle className="mr-0.5 sm:mr-1" />
            <HeaderNav />
          </nav>
        </div>
      </header>

      <main id="main" className="flex-1">
        <Hero />

        <section
          aria-label={t('landing.contact.label')}
          className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900"
        >
          <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-5 sm:flex-row sm:px-6">
            <p className="text-center font-medium text-stone-800 sm:text-left dark:text-stone-200">
              {t('landing.contact.text')}
            </p>
            <div className="flex flex-wrap justify-center gap-3">
              <a
                href={SUPPORT.phoneHref}
                className="inline-flex items-center gap-2 rounded-xl border border-stone-300 px-4 py-2 text-sm font-semibold hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
              >
                <PhoneIcon className="size-4" /> {t('landing.contact.call', { phone: SUPPORT.phone })}
              </a>
              <a
                href={SUPPORT.whatsappHref}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-2 rounded-xl bg-green-700 px-4 py-2 text-sm font-semibold text-white hover:bg-green-800"
              >
                <ChatIcon className="size-4" /> WhatsApp
              </a>
            </div>
          </div>
        </section>

        <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="features-heading" className="text-center text-3xl font-extrabold tracking-tight">
            {t('landing.why.title')}
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-stone-600 dark:text-stone-400">
            {t('landing.why.text')}
          </p>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {FEATURES.map(({ title, text, Icon }) => (
              <li
                key={title}
                className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md dark:border-stone-800 dark:bg-stone-900"
              >
                <span className="grid size-12 place-items-center rounded-xl bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
                  <Icon className="size-6" />
                </span>
                <h3 className="mt-4 text-lg font-bold">{t(title)}</h3>
                <p className="mt-2 text-stone-600 dark:text-stone-400">{t(text)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-label={t('landing.facts.label')} className="bg-stone-900 text-white dark:bg-black">
          <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-12 text-center sm:px-6 md:grid-cols-4">
            {FACTS.map((fact) => (
              <div key={fact.label} className="flex min-w-0 flex-col">
                <dt className="order-2 mt-1 text-sm uppercase tracking-wide text-stone-400">{t(fact.label)}</dt>
                <dd className="break-words bg-gradient-to-r from-brand-300 to-amber-200 bg-clip-text text-2xl font-extrabold text-transparent sm:text-3xl">
                  {t(fact.headline)}
                </dd>
              </div>
            ))}
          </dl>
        </section>

        <section className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6">
          <h2 className="text-3xl font-extrabold tracking-tight">{t('landing.ready.title')}</h2>
          <p className="mx-auto mt-3 max-w-xl text-stone-600 dark:text-stone-400">
            {status === 'guest' ? t('landing.ready.guest') : t('landing.ready.member')}
          </p>
          <div className="mt-8 flex justify-center gap-3">
            {status === 'guest' ? (
              <>
                <LinkButton to="/register" size="lg">
                  {t('nav.getStarted')}
                </LinkButton>
                <LinkButton to="/login" size="lg" variant="outline">
                  {t('action.signIn')}
                </LinkButton>
              </>
            ) : status === 'loading' ? null : hasAccess ? (
              <LinkButton to="/movies" size="lg">
                {t('action.browseMovies')}
              </LinkButton>
            ) : (
              <LinkButton to="/subscription" size="lg">
                {t('action.subscribeNow')}
              </LinkButton>
            )}
          </div>
        </section>
      </main>

      <SiteFooter />
    </div>
  );
}
