import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/Spinner.tsx';
import { Toaster } from '../components/ui/Toaster.tsx';
import { MaintenancePage } from '../features/system/MaintenancePage.tsx';
import { OfflineBanner, UpdatePrompt } from '../features/system/PwaStatus.tsx';
import { useT, useWantedLocale } from '../lib/i18n.ts';
import { useMetaStore } from '../lib/meta.ts';
import { useSession } from '../lib/session.ts';
import { RouteFocus } from './RouteFocus.tsx';

/** Routes that stay reachable in maintenance mode so admins can sign in and work. */
const MAINTENANCE_OPEN = ['/login', '/admin'];

function MaintenanceGate() {
  const maintenance = useMetaStore((s) => s.maintenance);
  const { status, isAdmin } = useSession();
  const { pathname } = useLocation();
  if (!maintenance || isAdmin) return <Outlet />;
  if (MAINTENANCE_OPEN.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return <Outlet />;
  // Don't show the maintenance page to an admin whose profile is still loading.
  if (status === 'loading') return <PageSpinner />;
  return <MaintenancePage />;
}

/** Root of every route: maintenance wrapper, toasts, offline banner, the update prompt and route-change focus. */
export function RootLayout() {
  const t = useT();
  useWantedLocale();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-brand-800 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        {t('nav.skip')}
      </a>
      <OfflineBanner />
      <MaintenanceGate />
      <UpdatePrompt />
      <Toaster />
      <ScrollRestoration />
      <RouteFocus />
    </>
  );
}
