import type { ReactNode } from 'react';
import { LanguageSwitch } from '../ui/LanguageSwitch.tsx';
import { Logo } from '../ui/Logo.tsx';
import { ThemeToggle } from '../ui/ThemeToggle.tsx';

/**
 * Header for inner screens: logo, theme toggle and screen-specific actions. Opaque below `lg`: a backdrop
 * filter would make the header the containing block of AccountHeader's fixed bottom bar.
 */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-950 lg:bg-white/90 lg:backdrop-blur lg:dark:bg-stone-950/90">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Logo />
        <div className="flex min-w-0 items-center gap-1 sm:gap-2">
          <LanguageSwitch />
          <ThemeToggle />
          {children}
        </div>
      </div>
    </header>
  );
}
