/**
 * Constants the entry chunk needs, re-exported from @filamu/shared. Vite marks the shared package
 * side-effect free (vite.config.ts), so importing these does not pull zod into the landing bundle.
 */
export { AGENT_PLAN_LABEL, DAYS_REMAINING_WARNING, HERO_AUTOPLAY_MS, SUPPORT } from '@filamu/shared';
