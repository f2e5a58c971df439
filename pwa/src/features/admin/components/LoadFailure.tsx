import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { errorMessage } from '../../../lib/api.ts';

/** Product §8 'Failed to load {what}: {message}', said where the data would be, with a way to try again. */
export function LoadFailure({
  what,
  error,
  onRetry,
  className,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn(
        'rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200',
        className,
      )}
    >
      <p className="font-semibold">
        Failed to load {what}: {errorMessage(error, 'Please try again.')}
      </p>
      <Button size="sm" variant="outline" className="mt-3" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
