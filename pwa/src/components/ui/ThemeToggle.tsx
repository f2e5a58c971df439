import { useThemeStore, type Theme } from '../../lib/theme.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useT, type WebMessageId } from '../../lib/i18n.ts';
import { cn } from './cn.ts';
import { MonitorIcon, MoonIcon, SunIcon } from './icons.tsx';

const OPTIONS: Array<{ value: Theme; label: WebMessageId; Icon: typeof SunIcon }> = [
  { value: 'light', label: 'theme.light', Icon: SunIcon },
  { value: 'dark', label: 'theme.dark', Icon: MoonIcon },
  { value: 'system', label: 'theme.system', Icon: MonitorIcon },
];

/** Light / dark / system switch (three pressed-state buttons). */
export function ThemeToggle({ className }: { className?: string }) {
  const t = useT();
  const saved = useThemeStore((s) => s.theme);
  // The prerendered page cannot know the saved choice, nor act on a press before its script has arrived: the
  // options are disabled, none pressed, until the app has hydrated.
  const hydrated = useHydrated();
  const theme = hydrated ? saved : null;
  const setTheme = useThemeStore((s) => s.setTheme);
  return (
    <div
      role="group"
      aria-label={t('theme.label')}
      className={cn(
        'inline-flex items-center rounded-full border border-stone-300 bg-white/80 p-0.5 backdrop-blur dark:border-stone-700 dark:bg-stone-900/80',
        className,
      )}
    >
      {OPTIONS.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          aria-label={t(label)}
          aria-pressed={theme === value}
          title={t(label)}
          data-theme-option={value}
          disabled={!hydrated}
          onClick={() => setTheme(value)}
          className={cn(
            'rounded-full p-1 transition-colors sm:p-1.5',
            theme === value
              ? 'bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950'
              : 'text-stone-600 hover:text-stone-900 dark:text-stone-300 dark:hover:text-white',
          )}
        >
          <Icon className="size-4" />
        </button>
      ))}
    </div>
  );
}
