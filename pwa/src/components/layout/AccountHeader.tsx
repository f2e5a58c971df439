import { useState, type ComponentType } from 'react';
import { Link, NavLink } from 'react-router';
import { useT, type WebMessageId } from '../../lib/i18n.ts';
import { useLogout } from '../../lib/logout.ts';
import { useSession, useSessionStore } from '../../lib/session.ts';
import { Button } from '../ui/Button.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { cn } from '../ui/cn.ts';
import { DownloadIcon, FilmIcon, HomeIcon, LogOutIcon, ShieldIcon, UserIcon, type IconProps } from '../ui/icons.tsx';
import { AppHeader } from './AppHeader.tsx';

interface NavItem {
  to: string;
  label: WebMessageId;
  Icon: ComponentType<IconProps>;
}

const SIGNED_IN: NavItem[] = [
  { to: '/dashboard', label: 'nav.dashboard', Icon: HomeIcon },
  { to: '/movies', label: 'nav.movies', Icon: FilmIcon },
  { to: '/downloads', label: 'nav.downloads', Icon: DownloadIcon },
  { to: '/profile', label: 'nav.profile', Icon: UserIcon },
];
const ADMIN: NavItem = { to: '/admin', label: 'nav.admin', Icon: ShieldIcon };

/**
 * The one header of every screen past the landing page: the same places in the same order on every page,
 * the current one marked. On phones the places sit in a bar at the bottom, where a thumb reaches, with
 * their names (icons alone are guesswork); from `lg` up they sit in the header. Guests get Login and
 * Get Started instead.
 */
export function AccountHeader() {
  const t = useT();
  const { status, isAdmin } = useSession();
  // A phone that still shows its last person's films (decision 0233) is theirs: it offers Login, not a new account.
  const kept = useSessionStore((s) => !!s.keptOwnerId);
  const { logout, pending } = useLogout();
  // Log out sits beside the theme switch: one slip of the thumb must not end the session (and need the password).
  const [confirming, setConfirming] = useState(false);
  const signedIn = status === 'user' || status === 'agent';
  const items = isAdmin ? [...SIGNED_IN, ADMIN] : SIGNED_IN;

  return (
    <AppHeader>
      {signedIn ? (
        <>
          <nav
            aria-label={t('nav.main')}
            data-bottom-nav
            className="fixed inset-x-0 bottom-0 z-30 border-t border-stone-200 bg-white pb-[env(safe-area-inset-bottom)] lg:static lg:border-0 lg:bg-transparent lg:pb-0 dark:border-stone-800 dark:bg-stone-950 lg:dark:bg-transparent"
          >
            <ul className="flex lg:gap-1">
              {items.map(({ to, label, Icon }) => (
                <li key={to} className="min-w-0 flex-1 lg:flex-none">
                  <NavLink
                    to={to}
                    className={({ isActive }) =>
                      cn(
                        'flex min-h-14 flex-col items-center justify-center gap-0.5 px-0.5 text-[0.6875rem] font-semibold tracking-tight lg:min-h-10 lg:flex-row lg:gap-1.5 lg:rounded-lg lg:px-2.5 lg:text-sm lg:tracking-normal',
                        isActive
                          ? 'bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-300'
                          : 'text-stone-700 hover:bg-stone-100 hover:text-stone-950 dark:text-stone-300 dark:hover:bg-stone-800 dark:hover:text-white',
                      )
                    }
                  >
                    <Icon className="size-5 lg:size-4" />
                    <span className="max-w-full truncate lg:max-w-none">{t(label)}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label={t('nav.logout')}>
            <LogOutIcon className="size-4" />
            <span className="hidden lg:inline">{t('nav.logout')}</span>
          </Button>
          <ConfirmDialog
            open={confirming}
            title={t('nav.logout.title')}
            confirmLabel={t('nav.logout')}
            confirmVariant="primary"
            busy={pending}
            onConfirm={() => void logout()}
            onClose={() => setConfirming(false)}
          >
            <p>{t('nav.logout.text')}</p>
          </ConfirmDialog>
        </>
      ) : status === 'guest' ? (
        <>
          <Link
            to="/login"
            className="rounded-lg px-2.5 py-2 text-sm font-semibold hover:bg-stone-100 dark:hover:bg-stone-800"
          >
            {t('nav.login')}
          </Link>
          {!kept && (
            <Link
              to="/register"
              className="whitespace-nowrap rounded-lg bg-brand-700 px-2.5 py-2 text-sm font-semibold text-white hover:bg-brand-800 dark:bg-brand-500 dark:text-stone-950 dark:hover:bg-brand-400"
            >
              {t('nav.getStarted')}
            </Link>
          )}
        </>
      ) : null}
    </AppHeader>
  );
}
