import { create } from 'zustand';

/** Light / dark / system, kept in localStorage `theme` (default system), applied as `dark` on <html>. */
export type Theme = 'light' | 'dark' | 'system';

const KEY = 'theme';
const media = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function readTheme(): Theme {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark' || saved === 'system') return saved;
  } catch {
    /* storage unavailable */
  }
  return 'system';
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
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      /* storage unavailable */
    }
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
