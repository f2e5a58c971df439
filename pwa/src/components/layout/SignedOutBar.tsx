import { Link, useLocation } from 'react-router';
import { useT } from '../../lib/i18n.ts';

/**
 * Above My Downloads and the Play screen while the phone is signed out but still shows the films of the last person
 * signed in on it (decision 0233): says why nothing new can be downloaded, and where to sign in again.
 */
export function SignedOutBar() {
  const t = useT();
  const location = useLocation();
  return (
    <aside
      aria-label={t('signedOut.label')}
      data-testid="signed-out-bar"
      className="border-b border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 py-2 text-sm sm:px-6">
        <p className="min-w-0 font-medium">{t('signedOut.text')}</p>
        <Link
          to="/login"
          state={{ from: location.pathname }}
          className="-mx-2 rounded-lg px-2 py-1 font-semibold underline underline-offset-2 hover:bg-amber-100 dark:hover:bg-amber-900"
        >
          {t('signedOut.signIn')}
        </Link>
      </div>
    </aside>
  );
}
