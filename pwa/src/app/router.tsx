import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { setNavigate } from '../lib/navigation.ts';
import { routes } from './routes.tsx';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Loads the lazy route modules the current address needs before the router starts, so that hydrating a
 * prerendered page renders that page at once instead of the loading fallback (which would not match the HTML).
 */
async function loadMatchedRoutes(): Promise<void> {
  const lazyMatches = matchRoutes(routes, window.location)?.filter((match) => match.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const load = route.lazy as () => Promise<Partial<RouteObject>>;
      Object.assign(route, { ...(await load()), lazy: undefined });
    }),
  );
}

/** The browser router over the route table; `prerendered` when it is about to hydrate HTML rendered at build time. */
export async function createAppRouter(prerendered: boolean): Promise<AppRouter> {
  if (prerendered) await loadMatchedRoutes();
  const router = createBrowserRouter(routes);
  setNavigate((to) => void router.navigate(to, { replace: true }));
  return router;
}
