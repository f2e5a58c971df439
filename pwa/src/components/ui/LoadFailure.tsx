import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useCommonT } from '../../lib/common-messages.ts';
import { Button } from './Button.tsx';
import { Card } from './Card.tsx';
import { cn } from './cn.ts';

/**
 * How much room the failure takes (decision 0224): a box of its own where a table or list would be (the console), a
 * screen's centred card where the whole screen's data would be, or a line inside a card or a form.
 */
type Look = 'panel' | 'card' | 'line';

const looks: Record<Look, { box: string; words: string; buttons: string }> = {
  panel: {
    box: 'rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200',
    words: 'font-semibold',
    buttons: 'mt-3',
  },
  card: { box: 'text-center', words: 'font-semibold text-red-700 dark:text-red-400', buttons: 'mt-4 justify-center' },
  line: { box: 'text-sm', words: 'font-medium text-red-700 dark:text-red-400', buttons: 'mt-2' },
};

/**
 * Product §8 "Failed to load {what}: {message}", said where the data would be, with a way to try again. `reason`
 * places the server's message: after the words, on a line of its own under them, or not at all (product §8.4
 * "Failed to load movie details."). `children` (what still works meanwhile) go under the words, `actions` (a way
 * elsewhere) beside the retry.
 */
export function LoadFailure({
  what,
  error,
  fallback,
  reason = 'after',
  onRetry,
  retrying,
  retryLabel,
  look = 'panel',
  className,
  children,
  actions,
}: {
  what: string;
  error: unknown;
  /** Said when the error carries no message of its own. */
  fallback?: string;
  reason?: 'after' | 'below' | 'none';
  onRetry?: () => void;
  retrying?: boolean;
  retryLabel?: string;
  look?: Look;
  className?: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const t = useCommonT();
  const style = looks[look];
  const message = errorMessage(error, fallback ?? t('common.tryAgain'));
  const content = (
    <>
      <p className={style.words}>
        {reason === 'after'
          ? t('common.loadFailure.reason', { what, message })
          : t(reason === 'none' ? 'common.loadFailure.stop' : 'common.loadFailure', { what })}
      </p>
      {reason === 'below' && <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{message}</p>}
      {children}
      {(onRetry || actions) && (
        <div className={cn('flex flex-wrap gap-3', style.buttons)}>
          {onRetry && (
            <Button
              size={look === 'card' ? 'md' : 'sm'}
              variant={look === 'card' ? 'primary' : 'outline'}
              onClick={onRetry}
              loading={retrying}
            >
              {retryLabel ?? t('common.retry')}
            </Button>
          )}
          {actions}
        </div>
      )}
    </>
  );
  return look === 'card' ? (
    <Card role="alert" className={cn(style.box, className)}>
      {content}
    </Card>
  ) : (
    <div role="alert" className={cn(style.box, className)}>
      {content}
    </div>
  );
}
