/** Page paths are answered with HTML; a path whose last segment has a dot names a file, and is 404 if missing. */
export function isPagePath(pathname: string): boolean {
  return !(pathname.split('/').at(-1) ?? '').includes('.');
}
