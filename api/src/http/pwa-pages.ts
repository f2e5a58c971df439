/** The HTML file every page path without a file of its own gets: the client router takes it from there. */
export const SPA_SHELL = 'index.html';

/**
 * Page paths that have an HTML file of their own in the build (dist-relative), e.g. pages prerendered at build
 * time. Empty today: the landing is the SPA shell itself.
 */
const PAGE_FILES: Readonly<Record<string, string>> = {};

/**
 * The built HTML file that answers a page path (a path whose last segment has no dot): `/terms` and `/terms/`
 * alike. The static server falls back to the shell if the file named here is not in the build.
 */
export function pageFileFor(pathname: string): string {
  const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGE_FILES[route] ?? SPA_SHELL;
}

/** Page paths are answered with HTML; a path whose last segment has a dot names a file, and is 404 if missing. */
export function isPagePath(pathname: string): boolean {
  return !(pathname.split('/').at(-1) ?? '').includes('.');
}
