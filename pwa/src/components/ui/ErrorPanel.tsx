import { isRouteErrorResponse, useRouteError } from 'react-router';
import { t, useT } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { Button, LinkButton } from './Button.tsx';

/** What went wrong, in words a person can act on: a lost connection is the usual cause of a screen that fails to load. */
function describe(error: unknown): string {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return t('ui.error.offline');
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (
    error instanceof Error &&
    /dynamically imported module|Loading chunk|Importing a module script failed/i.test(error.message)
  )
    return t('ui.error.chunk');
  return error instanceof Error ? error.message : t('ui.error.somethingWrong');
}

/**
 * A router error boundary's panel: says what failed and offers a way back, while everything around it (the
 * header, the console's tabs) stays usable. `home` is where "back" leads for this part of the app.
 */
export function ErrorPanel({ title, home }: { title: string; home: { to: string; label: string } }) {
  const translate = useT();
  const error = useRouteError();
  useDocumentTitle(title);
  return (
    <section
      role="alert"
      className="mx-auto flex max-w-xl flex-col items-center justify-center gap-4 p-6 py-16 text-center"
    >
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="break-words text-stone-700 dark:text-stone-300">{describe(error)}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>{translate('ui.tryAgain')}</Button>
        <LinkButton variant="secondary" to={home.to} reloadDocument>
          {home.label}
        </LinkButton>
      </div>
    </section>
  );
}
