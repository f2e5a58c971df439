import { NavLink, Outlet } from 'react-router';
import { SandboxBanner } from './SandboxBanner.tsx';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ADMIN_TABS } from './tabs.ts';

/**
 * The admin console's frame: the app header, the seven tabs as links (each tab is its own URL, so Back,
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
          <nav aria-label="Admin" className="-mb-px min-w-0 flex-1 overflow-x-auto">
            <ul className="flex gap-1">
              {ADMIN_TABS.map(({ path, label }) => (
                <li key={path}>
                  <NavLink
                    to={path}
                    end
                    className={({ isActive }) =>
                      cn(
                        'inline-flex min-h-12 items-center whitespace-nowrap border-b-2 px-3 text-sm font-semibold',
                        isActive
                          ? 'border-brand-700 text-brand-800 dark:border-brand-400 dark:text-brand-300'
                          : 'border-transparent text-stone-700 hover:border-stone-300 hover:text-stone-950 dark:text-stone-300 dark:hover:border-stone-600 dark:hover:text-white',
                      )
                    }
                  >
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}
