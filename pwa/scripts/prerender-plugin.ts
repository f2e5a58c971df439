import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Plugin, Rollup } from 'vite';
import { APP_LOADER_SCRIPT, APP_SHELL_FILE, PRERENDERED_PAGES, THEME_SCRIPT } from '../../shared/src/web-shell.ts';
import type { PrerenderedPage } from '../src/prerender.tsx';

const THEME_SCRIPT_TAG =
  '<!-- The theme script is inlined here at build time (shared/src/web-shell.ts THEME_SCRIPT). -->';
const EMPTY_ROOT = '<div id="root"></div>';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * A prerendered page is readable before its JavaScript arrives, so the bundle waits for the first paint: the
 * script tags become a list for APP_LOADER_SCRIPT, which loads them once the page has painted.
 */
function loadScriptsAfterPaint(html: string): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) throw new Error('prerender: index.html has no module entry script');
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  const loader = `\n    <meta name="filamu-app" content="${[entry, ...preloads].join(' ')}" />\n    <script>${APP_LOADER_SCRIPT}</script>`;
  return html.replace(MODULE_PRELOAD, '').replace(ENTRY_SCRIPT, () => loader);
}

/** Puts the theme script inline in the page head (dev and build): no script download before the first paint. */
export function inlineThemeScript(): Plugin {
  return {
    name: 'filamu:inline-theme-script',
    transformIndexHtml(html) {
      if (!html.includes(THEME_SCRIPT_TAG)) throw new Error(`index.html lost ${THEME_SCRIPT_TAG}`);
      return html.replace(THEME_SCRIPT_TAG, `<script>${THEME_SCRIPT}</script>`);
    },
  };
}

/**
 * After the client build has written index.html, renders every page of PRERENDERED_PAGES with the server build
 * of `src/prerender.tsx` (built first, into `ssrBundle`) and writes each into its own copy of the page; the
 * untouched page becomes the app shell for every other route (docs/decisions/0076).
 */
export function prerenderPages(ssrBundle: string): Plugin {
  return {
    name: 'filamu:prerender',
    apply: 'build',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'] as Rollup.OutputAsset | undefined;
        if (!index) throw new Error('prerender: the build produced no index.html');
        if (!existsSync(ssrBundle)) throw new Error(`prerender: ${ssrBundle} not found (vite build --ssr first)`);
        const shell = String(index.source);
        if (!shell.includes(EMPTY_ROOT)) throw new Error(`prerender: index.html has no ${EMPTY_ROOT}`);
        this.emitFile({ type: 'asset', fileName: APP_SHELL_FILE, source: shell });

        const { renderPage } = (await import(pathToFileURL(ssrBundle).href)) as {
          renderPage: (path: string) => Promise<PrerenderedPage>;
        };
        for (const [path, file] of Object.entries(PRERENDERED_PAGES)) {
          const page = await renderPage(path);
          const alternates = page.alternates
            .map((a) => `\n    <link rel="alternate" hreflang="${a.hreflang}" href="${escapeHtml(a.href)}" />`)
            .join('');
          const html = loadScriptsAfterPaint(shell)
            .replace(EMPTY_ROOT, () => `<div id="root">${page.html}</div>`)
            .replace('<html lang="en">', () => `<html lang="${page.lang}">`)
            .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>${alternates}`);
          if (file === 'index.html') index.source = html;
          else this.emitFile({ type: 'asset', fileName: file, source: html });
        }
      },
    },
  };
}
