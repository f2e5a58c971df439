/**
 * Build-time rendering of the pages in PRERENDERED_PAGES (docs/decisions/0076): built with `vite build --ssr`
 * and called by the `prerender` plugin in vite.config.ts, which puts the markup into the built index.html.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { routes } from './app/routes.tsx';
import { documentTitle, PrerenderedTitle } from './lib/page.ts';

export interface PrerenderedPage {
  /** The markup that goes inside <div id="root">. */
  html: string;
  title: string;
}

export async function renderPage(path: string): Promise<PrerenderedPage> {
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
  return { html, title: documentTitle(title) };
}
