/**
 * Where to go after signing in: back to the page that sent the person here (a guard, or a checkout result
 * opened signed out), if it is an in-app path other than /login; else the product's /admin or /dashboard.
 */
export function returnPath(state: unknown, fallback: string): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return fallback;
  if (from === '/login' || from.startsWith('/login?')) return fallback;
  return from;
}
