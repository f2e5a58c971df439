import { createContext, useContext, useEffect } from 'react';
import { t, useLocale } from './i18n.ts';

const APP_NAME = 'Filamu';

/** The tab's title, which screen readers announce on a route change: "My Profile · Filamu". */
export function documentTitle(title?: string | null): string {
  return title ? `${title} · ${APP_NAME}` : t('page.title.default', { app: APP_NAME });
}

/** Where a page rendered at build time leaves its title (effects, which set it in the browser, do not run there). */
export const PrerenderedTitle = createContext<((title: string | null) => void) | null>(null);

/** Sets the document title while the screen is shown; `undefined` keeps the last one (e.g. still loading). */
export function useDocumentTitle(title: string | null | undefined): void {
  const reportPrerenderedTitle = useContext(PrerenderedTitle);
  // The landing's title (null) is the catalogue's: it changes with the language, not with `title`.
  const locale = useLocale();
  if (reportPrerenderedTitle && title !== undefined) reportPrerenderedTitle(title);
  useEffect(() => {
    if (title !== undefined) document.title = documentTitle(title);
  }, [title, locale]);
}

/**
 * Moves focus to a heading so a screen reader reads where the person now is (a new page, the next
 * payment step). The heading becomes focusable by script only; it is not a tab stop.
 */
export function focusHeading(heading: HTMLElement | null | undefined, options?: FocusOptions): void {
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus(options);
}
