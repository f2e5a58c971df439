import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '../components/ui/Button.tsx';
import { WifiOffIcon } from '../components/ui/icons.tsx';
import { PageSpinner } from '../components/ui/Spinner.tsx';
import { SignedOutBar } from '../components/layout/SignedOutBar.tsx';
import { useT } from '../lib/i18n.ts';
import { useSignedOutOwner } from '../lib/owner.ts';
import { useSession, useSessionStore } from '../lib/session.ts';
import { startSessionBootstrap } from '../lib/session-start.ts';

/**
 * A saved session whose profile could not be loaded (none saved yet, and no connection): the person is still
 * signed in, so say so instead of spinning or sending them to /login (docs/decisions/0040).
 */
function Unreachable() {
  const t = useT();
  return (
    <main id="main" className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 p-6">
      <WifiOffIcon className="size-10 text-stone-500" />
      <h1 className="text-center text-xl font-bold">{t('ui.unreachable.title')}</h1>
      <p className="text-center text-stone-600 dark:text-stone-400">{t('ui.unreachable.text')}</p>
      <Button onClick={startSessionBootstrap}>{t('ui.tryAgain')}</Button>
    </main>
  );
}

function Loading() {
  const t = useT();
  const unreachable = useSessionStore((s) => s.unreachable);
  return unreachable ? <Unreachable /> : <PageSpinner label={t('ui.loadingAccount')} />;
}

/** Login required: guests go to /login (product §2). */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Loading />;
  if (status === 'guest') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/**
 * My Downloads and the Play screen: the signed-in person's, or, signed out by the server (another phone, an expired
 * session), still the films of the last person who signed in on this phone, under a bar that offers to sign in again
 * (decision 0233). Anyone else signed out goes to /login.
 */
export function RequireAuthOrKeptFilms() {
  const kept = useSignedOutOwner();
  if (!kept) return <RequireAuth />;
  return (
    <>
      <SignedOutBar />
      <Outlet />
    </>
  );
}

/** Login and admin required: guests go to /login, everyone else to /dashboard. */
export function RequireAdmin() {
  const { status, isAdmin } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Loading />;
  if (status === 'guest') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
