import { create } from 'zustand';
import { readLocal, writeLocal } from './local-storage.ts';

/** Light / dark / system, kept in localStorage `theme` (default system), applied as `dark` on <html>. */
export type Theme = 'light' | 'dark' | 'system';

const KEY = 'theme';
const media = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function readTheme(): Theme {
  const saved = readLocal(KEY);
  return saved === 'light' || saved === 'dark' || saved === 'system' ? saved : 'system';
}

function apply(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && !!media?.matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

export const useThemeStore = create<ThemeState>()((set) => ({
  theme: readTheme(),
  setTheme: (theme) => {
    writeLocal(KEY, theme);
    apply(theme);
    set({ theme });
  },
}));

/** Applies the saved theme and follows the OS while the choice is 'system'. */
export function initTheme(): void {
  apply(useThemeStore.getState().theme);
  media?.addEventListener('change', () => {
    if (useThemeStore.getState().theme === 'system') apply('system');
  });
  // Another tab changed the theme.
  window.addEventListener('storage', (event) => {
    if (event.key === KEY) {
      const theme = readTheme();
      apply(theme);
      useThemeStore.setState({ theme });
    }
  });
}
