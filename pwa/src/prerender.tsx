/**
 * Build-time rendering of the pages in PRERENDERED_PAGES (docs/decisions/0076): built with `vite build --ssr`
 * and called by the `prerender` plugin in vite.config.ts, which puts the markup into the built index.html.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { PAGE_IN_LUGANDA, type Locale } from '@filamu/shared';
import { routes } from './app/routes.tsx';
import { activateLocale } from './lib/i18n.ts';
import { documentTitle, PrerenderedTitle } from './lib/page.ts';

export interface PrerenderedPage {
  /** The markup that goes inside <div id="root">. */
  html: string;
  title: string;
  /** The page's language, for `<html lang>`. */
  lang: Locale;
  /** `<link rel="alternate" hreflang>` to this page in each language, itself included (none: English only). */
  alternates: Array<{ hreflang: string; href: string }>;
}

/** The language a prerendered page is in: Luganda for a page of PAGE_IN_LUGANDA's values, else English. */
const localeOfPage = (path: string): Locale => (Object.values(PAGE_IN_LUGANDA).includes(path) ? 'lg' : 'en');

function alternatesOf(path: string): PrerenderedPage['alternates'] {
  const english = Object.entries(PAGE_IN_LUGANDA).find(([en, lg]) => en === path || lg === path);
  if (!english) return [];
  const [en, lg] = english;
  return [
    { hreflang: 'en', href: en },
    { hreflang: 'lg', href: lg },
    { hreflang: 'x-default', href: en },
  ];
}

export async function renderPage(path: string): Promise<PrerenderedPage> {
  const lang = localeOfPage(path);
  await activateLocale(lang);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status} instead of a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // No hydration data: the pages load nothing, and an inline data script would need its own CSP hash.
  let title: string | null = null;
  const html = renderToString(
    <StrictMode>
      <PrerenderedTitle value={(pageTitle) => (title = pageTitle)}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </PrerenderedTitle>
    </StrictMode>,
  );
  return { html, title: documentTitle(title), lang, alternates: alternatesOf(path) };
}
