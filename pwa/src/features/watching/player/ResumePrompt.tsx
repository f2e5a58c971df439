import { useEffect, useRef } from 'react';
import { buttonClasses } from '../../../components/ui/Button.tsx';
import { formatClock } from '../positions.ts';
import { useWatchingT } from '../messages.ts';

/** "Resume from 43:10" or "Start over": asked when a film opens where it was left; Resume has the focus. */
export function ResumePrompt({
  at,
  onResume,
  onStartOver,
}: {
  at: number;
  onResume: () => void;
  onStartOver: () => void;
}) {
  const t = useWatchingT();
  const resumeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => resumeRef.current?.focus({ preventScroll: true }), []);
  return (
    <div
      role="group"
      aria-label={t('watching.resume.group')}
      className="flex flex-wrap items-center gap-3 rounded-2xl bg-brand-50 p-3 dark:bg-brand-950"
    >
      <button ref={resumeRef} type="button" className={buttonClasses('primary')} onClick={onResume}>
        {t('watching.resume.from', { time: formatClock(at) })}
      </button>
      <button type="button" className={buttonClasses('outline')} onClick={onStartOver}>
        {t('watching.resume.startOver')}
      </button>
    </div>
  );
}
