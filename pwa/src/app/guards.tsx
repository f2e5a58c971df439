import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/Spinner.tsx';
import { useSession } from '../lib/session.ts';

/** Login required: guests go to /login (SPEC §2). */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Loading your account" />;
  if (status === 'guest') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Login and admin required: guests go to /login, everyone else to /dashboard. */
export function RequireAdmin() {
  const { status, isAdmin } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Loading your account" />;
  if (status === 'guest') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
