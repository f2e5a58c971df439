import { trimTrailingSlashes } from './text.ts';

/**
 * The HTML shell the PWA is delivered in, known to both the build (which writes it) and the server (which serves
 * it and sets its Content-Security-Policy).
 */

/**
 * Applies the saved theme before the first paint. Inlined in every page's <head>, so the first paint waits for
 * no script download; the server allows exactly this text by its SHA-256 hash in the CSP (docs/decisions/0077).
 */
export const THEME_SCRIPT =
  "(function(){try{var s=localStorage.getItem('theme'),t=s==='light'||s==='dark'?s:'system'," +
  "d=t==='dark'||(t==='system'&&matchMedia('(prefers-color-scheme: dark)').matches);" +
  "document.documentElement.classList.toggle('dark',d);document.documentElement.style.colorScheme=d?'dark':'light'}" +
  'catch(e){}})()';

/**
 * Starts the app's JavaScript on a prerendered page once that page has painted (or loaded, in a background tab):
 * on a slow link the first paint gets the bandwidth, and the bundle follows. The scripts to load are listed in
 * `<meta name="filamu-app" content="<entry> <preload>…">`; this text never changes, so its CSP hash does not.
 */
export const APP_LOADER_SCRIPT =
  '(function(){var m=document.querySelector(\'meta[name="filamu-app"]\'),s=!1;if(!m)return;' +
  'function go(){if(s)return;s=!0;var u=m.content.split(" ");' +
  "u.slice(1).forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l)});" +
  "var e=document.createElement('script');e.type='module';e.crossOrigin='';e.src=u[0];document.head.appendChild(e)}" +
  "requestAnimationFrame(function(){setTimeout(go)});addEventListener('load',go)})()";

/** The inline scripts a page may carry; the server's CSP allows exactly these by hash. */
export const INLINE_SCRIPTS: readonly string[] = [THEME_SCRIPT, APP_LOADER_SCRIPT];

/**
 * Pages rendered to HTML at build time (docs/decisions/0076): the path and the file in the built PWA that holds
 * it. They paint before any JavaScript has arrived and are hydrated by the app.
 */
export const PRERENDERED_PAGES: Readonly<Record<string, string>> = {
  '/': 'index.html',
  /** The landing in Luganda (decision 0258); its `<html lang="lg">` tells the app which language to hydrate in. */
  '/lg': 'lg.html',
  '/terms': 'terms.html',
  '/refund-cancellation': 'refund-cancellation.html',
  '/privacy-policy': 'privacy-policy.html',
  '/dmca-policy': 'dmca-policy.html',
  '/contact-us': 'contact-us.html',
};

/**
 * The pages that exist in each language (decision 0258): their Luganda address, linked both ways with `hreflang`.
 * The other prerendered pages are English only for now.
 */
export const PAGE_IN_LUGANDA: Readonly<Record<string, string>> = { '/': '/lg' };

/**
 * The public preview of the library (docs/decisions/0215): movies, posters and plan prices for anyone, rendered by
 * the server on request (the library changes at run time, so the build cannot know it) with no JavaScript. Not a
 * page of the app: the service worker passes it to the network, and app links to it load it as a document.
 */
export const PREVIEW_PATH = '/browse';

/** Every other page path gets this empty shell, which the app renders into. */
export const APP_SHELL_FILE = 'app.html';

/** The built file that answers a page path: its prerendered page, or the app shell. */
export function pageFileFor(path: string): string {
  const normalized = path.length > 1 ? trimTrailingSlashes(path) : path;
  return PRERENDERED_PAGES[normalized] ?? APP_SHELL_FILE;
}
