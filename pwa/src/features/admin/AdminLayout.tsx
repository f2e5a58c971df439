import { Outlet } from 'react-router';
import { SandboxBanner } from './SandboxBanner.tsx';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { AdminTabBar } from './components/AdminTabBar.tsx';

/**
 * The admin console's frame: the app header, the tabs as links (AdminTabBar) (each tab is its own URL, so Back,
 * reload and bookmarks work) and the tab's screen. Each tab renders its own `<h1>` (TabHeading), which
 * RouteFocus moves focus to when the tab changes.
 */
export default function AdminLayout() {
  return (
    <div className="min-h-screen">
      <AccountHeader />
      <SandboxBanner />
      <div className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-950">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 sm:px-6">
          <Badge tone="brand" className="shrink-0">
            Admin
          </Badge>
          <AdminTabBar />
        </div>
      </div>
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}
