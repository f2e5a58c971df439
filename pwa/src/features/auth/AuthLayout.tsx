import type { ReactNode } from 'react';
import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { useDocumentTitle } from '../../lib/page.ts';

/** Shared frame for the sign-in and sign-up forms. */
export function AuthLayout({
  title,
  pageTitle,
  subtitle,
  children,
}: {
  title: string;
  /** The tab's title, naming the screen ("Login") where the heading greets ("Welcome back"). */
  pageTitle: string;
  subtitle: string;
  children: ReactNode;
}) {
  useDocumentTitle(pageTitle);
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader />
      <main
        id="main"
        className="flex flex-1 items-start justify-center bg-gradient-to-b from-brand-50 to-stone-50 px-4 py-10 sm:items-center dark:from-brand-950/40 dark:to-stone-950"
      >
        <div className="w-full max-w-md">
          <div className="rounded-3xl border border-stone-200 bg-white p-6 shadow-xl sm:p-8 dark:border-stone-800 dark:bg-stone-900">
            <h1 className="text-2xl font-extrabold tracking-tight">{title}</h1>
            <p className="mt-1 text-stone-600 dark:text-stone-400">{subtitle}</p>
            <div className="mt-6">{children}</div>
          </div>
        </div>
      </main>
    </div>
  );
}

/** Inline error summary shown above a form: the one place a form's error is said (no toast repeats it). */
export function FormAlert({ title, message }: { title: string; message: string }) {
  return (
    <div
      role="alert"
      className="mb-5 rounded-xl border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200"
    >
      <p className="font-semibold">{title}</p>
      <p>{message}</p>
    </div>
  );
}
