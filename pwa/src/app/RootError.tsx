import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useT } from '../lib/i18n.ts';
import { useDocumentTitle } from '../lib/page.ts';

/** Generic router fallback (product §8: 'Unexpected Application Error!'). Also covers a failed chunk load. */
export function RootError() {
  const t = useT();
  const error = useRouteError();
  useDocumentTitle(t('ui.error.title'));
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : t('ui.error.somethingWrong');
  return (
    <main
      id="main"
      className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <h1 className="text-2xl font-bold">{t('ui.error.heading')}</h1>
      <p className="text-stone-700 dark:text-stone-300">{detail}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-xl bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 dark:bg-brand-500 dark:text-stone-950 dark:hover:bg-brand-400"
        >
          {t('ui.reload')}
        </button>
        <a
          href="/"
          className="rounded-xl border border-stone-300 px-4 py-2.5 font-semibold hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
        >
          {t('ui.goHome')}
        </a>
      </div>
    </main>
  );
}
