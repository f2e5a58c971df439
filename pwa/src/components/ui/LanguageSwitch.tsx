import { LOCALE_NAMES, LOCALES, SUPPORT, type Locale } from '@filamu/shared';
import { useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useHydrated } from '../../lib/hydration.ts';
import { chooseLocale, useLocale, useT } from '../../lib/i18n.ts';
import { cn } from './cn.ts';

/** The landing in each language (decision 0258): `/` in English, `/lg` in Luganda, each prerendered. */
export const landingPathFor = (locale: Locale) => (locale === 'lg' ? '/lg' : '/');
export const isLandingPath = (path: string) => path === '/' || path === '/lg' || path === '/lg/';

/**
 * English / Luganda, each named in itself, behind a small button (a 360 px header has no room for two words more),
 * with "Translation feedback" to WhatsApp or the support email naming the screen. A `<details>`: it opens on a
 * prerendered page before any script, and the choices wait for the app like the theme's.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const t = useT();
  const locale = useLocale();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const details = useRef<HTMLDetailsElement>(null);
  // The screen by its address: the same when prerendered and in the app, so hydration finds the same link.
  const feedback = t('language.feedback.text', { screen: pathname, language: LOCALE_NAMES[locale] });

  const choose = async (next: Locale) => {
    if (details.current) details.current.open = false;
    await chooseLocale(next);
    if (isLandingPath(pathname)) void navigate(landingPathFor(next), { replace: true });
  };

  return (
    <details ref={details} className={cn('relative', className)} data-language-switch>
      <summary className="flex min-h-8 min-w-8 cursor-pointer list-none items-center justify-center gap-1 rounded-full border border-stone-300 bg-white/80 px-2 py-1 text-xs font-bold uppercase text-stone-700 backdrop-blur dark:border-stone-700 dark:bg-stone-900/80 dark:text-stone-200 [&::-webkit-details-marker]:hidden">
        <svg
          viewBox="0 0 24 24"
          className="size-4 max-[379px]:hidden"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          aria-hidden="true"
        >
          <circle cx="12" cy="12" r="10" />
          <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
        </svg>
        {/* The code shows (the globe too from 380 px: a 360 px landing header holds five controls); the name is read
            out, as the code alone says little to a screen reader. */}
        <span aria-hidden="true">{locale}</span>
        <span className="sr-only">{t('language.switch.label', { language: LOCALE_NAMES[locale] })}</span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-56 rounded-2xl border border-stone-200 bg-white p-2 text-sm text-stone-900 shadow-xl dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100">
        <div role="group" aria-label={t('language.switch.group')} className="grid gap-1">
          {LOCALES.map((value) => (
            <button
              key={value}
              type="button"
              lang={value}
              aria-pressed={hydrated ? locale === value : undefined}
              disabled={!hydrated}
              data-language-option={value}
              onClick={() => void choose(value)}
              className={cn(
                'rounded-xl px-3 py-2 text-left font-semibold',
                locale === value
                  ? 'bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950'
                  : 'hover:bg-stone-100 dark:hover:bg-stone-800',
              )}
            >
              {LOCALE_NAMES[value]}
            </button>
          ))}
        </div>
        <p className="mt-2 border-t border-stone-200 px-3 pt-2 text-stone-600 dark:border-stone-700 dark:text-stone-300">
          {t('language.feedback.title')}:{' '}
          <a
            href={`${SUPPORT.whatsappHref}?text=${encodeURIComponent(feedback)}`}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold text-brand-700 underline dark:text-brand-300"
          >
            WhatsApp
          </a>{' '}
          ·{' '}
          <a
            href={`mailto:${SUPPORT.email}?subject=${encodeURIComponent(feedback)}`}
            className="font-semibold text-brand-700 underline dark:text-brand-300"
          >
            {t('language.feedback.email')}
          </a>
        </p>
      </div>
    </details>
  );
}
