import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { ArrowLeftIcon } from '../../components/ui/icons.tsx';
import { Logo } from '../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { SiteFooter } from '../../components/layout/SiteFooter.tsx';
import { useLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { usePagesT } from './messages.ts';

/** History back, or home when this page was opened directly. */
function useGoBack() {
  const navigate = useNavigate();
  return () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate('/');
  };
}

/**
 * Shared frame for the policy and contact pages. `legal`: the page's text stays English for now (issue 22/22), which
 * a Luganda reader is told above it.
 */
export function StaticPageLayout({
  title,
  updated,
  legal,
  children,
}: {
  title: string;
  updated?: string;
  legal?: boolean;
  children: ReactNode;
}) {
  const t = usePagesT();
  const locale = useLocale();
  useDocumentTitle(title);
  const goBack = useGoBack();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 border-b border-stone-200 bg-white/90 backdrop-blur dark:border-stone-800 dark:bg-stone-950/90">
        <div className="mx-auto flex max-w-4xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Button variant="ghost" size="sm" onClick={goBack}>
            <ArrowLeftIcon className="size-4" /> {t('pages.layout.goBack')}
          </Button>
          <Logo className="hidden sm:inline-flex" />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-4xl flex-1 px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
        {updated && (
          <p className="mt-2 text-sm text-stone-500 dark:text-stone-400">
            {t('pages.layout.updated', { date: updated })}
          </p>
        )}
        {legal && locale === 'lg' && (
          <p className="mt-4 rounded-xl bg-amber-50 p-3 text-sm font-medium text-amber-950 dark:bg-amber-950 dark:text-amber-100">
            {t('pages.legal.englishOnly')}
          </p>
        )}
        <div className="mt-8 space-y-8 leading-relaxed text-stone-700 dark:text-stone-300 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline dark:[&_a]:text-brand-300 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-stone-900 dark:[&_h2]:text-stone-50 [&_li]:ml-5 [&_li]:list-disc [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:space-y-1.5">
          {children}
        </div>
        <div className="mt-12 border-t border-stone-200 pt-6 dark:border-stone-800">
          <Button variant="outline" onClick={goBack}>
            <ArrowLeftIcon className="size-4" /> {t('pages.layout.backToPrevious')}
          </Button>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
