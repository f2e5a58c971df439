import { Link } from 'react-router';
import { LinkButton } from '../../components/ui/Button.tsx';
import { HomeIcon } from '../../components/ui/icons.tsx';
import { Logo } from '../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { useCommonT } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/page.ts';

export default function NotFoundPage() {
  const t = useCommonT();
  const webT = useT();
  useDocumentTitle(t('common.notFound.title'));
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-stone-200 dark:border-stone-800">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Logo />
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <Link
              to="/"
              className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold hover:bg-stone-100 dark:hover:bg-stone-800"
            >
              <HomeIcon className="size-4" /> {webT('ui.goHome')}
            </Link>
          </div>
        </div>
      </header>
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
        <p
          aria-hidden="true"
          className="bg-gradient-to-br from-brand-500 to-brand-900 bg-clip-text text-[7rem] font-black leading-none text-transparent sm:text-[10rem] dark:from-brand-300 dark:to-brand-600"
        >
          404
        </p>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{t('common.notFound.title')}</h1>
        <p className="mt-3 max-w-md text-stone-600 dark:text-stone-400">{t('common.notFound.text')}</p>
        <LinkButton to="/" size="lg" className="mt-8">
          {t('common.notFound.home')}
        </LinkButton>
      </main>
    </div>
  );
}
