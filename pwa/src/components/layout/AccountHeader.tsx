import { Link } from 'react-router';
import { useLogout } from '../../features/auth/useLogout.ts';
import { useSession } from '../../lib/session.ts';
import { Button } from '../ui/Button.tsx';
import { DownloadIcon, LogOutIcon, UserIcon } from '../ui/icons.tsx';
import { AppHeader } from './AppHeader.tsx';

/** Header for signed-in screens: downloads and profile links, and logout. */
export function AccountHeader() {
  const { logout, pending } = useLogout();
  const { isAdmin } = useSession();
  return (
    <AppHeader>
      {isAdmin && (
        <Link
          to="/admin"
          className="hidden rounded-lg px-3 py-2 text-sm font-semibold hover:bg-stone-100 sm:inline-flex dark:hover:bg-stone-800"
        >
          Admin
        </Link>
      )}
      <Link
        to="/downloads"
        aria-label="Downloads"
        title="My Downloads"
        className="rounded-lg p-2 hover:bg-stone-100 dark:hover:bg-stone-800"
      >
        <DownloadIcon />
      </Link>
      <Link
        to="/profile"
        aria-label="Profile"
        className="rounded-lg p-2 hover:bg-stone-100 dark:hover:bg-stone-800"
      >
        <UserIcon />
      </Link>
      <Button variant="ghost" size="sm" onClick={() => void logout()} loading={pending} aria-label="Logout">
        <LogOutIcon className="size-4" />
        <span className="hidden sm:inline">Logout</span>
      </Button>
    </AppHeader>
  );
}
