import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { FilmIcon } from '../../components/ui/icons.tsx';
import { useSession } from '../../lib/session.ts';

/** Screens that arrive in later issues: the right heading and a way back. */
export function ComingSoon({ title, description, backTo }: { title: string; description: string; backTo: string }) {
  const { status } = useSession();
  const target = status === 'guest' && backTo === '/dashboard' ? '/' : backTo;
  return (
    <>
      <AppHeader />
      <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
          <FilmIcon className="size-8" />
        </span>
        <h1 className="mt-6 text-3xl font-extrabold tracking-tight">{title}</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">{description}</p>
        <p className="mt-1 text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
          Coming soon
        </p>
        <LinkButton to={target} className="mt-8">
          {target === '/' ? 'Back to Home' : 'Back to Dashboard'}
        </LinkButton>
      </main>
    </>
  );
}
