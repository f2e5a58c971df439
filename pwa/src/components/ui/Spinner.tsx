import { useEffect, useState } from 'react';
import { useT } from '../../lib/i18n.ts';
import { cn } from './cn.ts';

/** A screen that is ready sooner than this (a chunk from the phone's cache) never flashes a spinner. */
const SPINNER_DELAY_MS = 400;

export function Spinner({ className, label: given }: { className?: string; label?: string }) {
  const t = useT();
  const label = given ?? t('ui.loading');
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center">
      <svg
        className={cn('animate-spin text-current', className ?? 'size-6')}
        viewBox="0 0 24 24"
        fill="none"
        aria-hidden="true"
      >
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

/**
 * Centered spinner for a whole screen or section. It turns only after a moment: most screens are ready before
 * it, and a spinning wheel redrawn every frame costs a slow phone's screen and battery for nothing. Screen readers
 * hear the label at once.
 */
export function PageSpinner({ label: given }: { label?: string }) {
  const t = useT();
  const label = given ?? t('ui.loading');
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="flex min-h-[50vh] items-center justify-center text-brand-600 dark:text-brand-400">
      {shown ? (
        <Spinner className="size-10" label={label} />
      ) : (
        <span role="status" className="sr-only">
          {label}
        </span>
      )}
    </div>
  );
}
