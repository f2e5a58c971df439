import { useSyncExternalStore } from 'react';

/**
 * Whether the `dark` class is on <html> now (the theme store resolves 'system' into it). Chart colours are
 * SVG attributes, not Tailwind classes, so the charts need the resolved theme as a value.
 */
export function useDarkMode(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}

const isDark = () => document.documentElement.classList.contains('dark');

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
