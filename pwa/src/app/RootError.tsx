import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useDocumentTitle } from '../lib/page.ts';

/** Generic router fallback (product §8: 'Unexpected Application Error!'). Also covers a failed chunk load. */
export function RootError() {
  const error = useRouteError();
  useDocumentTitle('Error');
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <main
      id="main"
      className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="text-stone-700 dark:text-stone-300">{detail}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-xl bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 dark:bg-brand-500 dark:text-stone-950 dark:hover:bg-brand-400"
        >
          Reload
        </button>
        <a
          href="/"
          className="rounded-xl border border-stone-300 px-4 py-2.5 font-semibold hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
        >
          Go Home
        </a>
      </div>
    </main>
  );
}
