/**
 * A keyboard focus indicator with at least 3:1 against the page in both themes (WCAG 1.4.11): brand-700 on
 * white, brand-400 on near-black. The ring-brand-400 it replaces was ~2.3:1 on white. No `focus:outline-none`
 * with it: in Tailwind 4 that sets the outline style to none, which `outline-2` would then inherit.
 * Pair it with an offset (`focus-visible:outline-offset-*`).
 */
export const FOCUS_OUTLINE =
  'focus-visible:outline-2 focus-visible:outline-brand-700 dark:focus-visible:outline-brand-400';
