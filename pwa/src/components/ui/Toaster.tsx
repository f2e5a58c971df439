import { useT } from '../../lib/i18n.ts';
import { useToastStore, type ToastVariant } from '../../lib/toast.ts';
import { cn } from './cn.ts';
import { CheckIcon, XIcon } from './icons.tsx';

const styles: Record<ToastVariant, string> = {
  success: 'border-green-300 dark:border-green-800',
  error: 'border-red-300 dark:border-red-800',
  info: 'border-stone-300 dark:border-stone-700',
};

/**
 * Toast region: a polite live region, each toast dismissible. On phones it sits at the top, over the header,
 * so it never covers the button the person is about to press (the next action is low on a phone screen);
 * on wider screens bottom-right, out of the content's way. On phones it stays inside the header's 64 px: only
 * the newest toast shows, in two lines at most, so the page's title below the header is never covered.
 */
export function Toaster() {
  const translate = useT();
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <div
      aria-live="polite"
      aria-relevant="additions text"
      className="pointer-events-none fixed inset-x-0 top-0 z-50 flex flex-col items-center gap-2 p-1.5 sm:top-auto sm:bottom-0 sm:items-end sm:p-4"
    >
      {toasts.map((t, i) => (
        <div
          key={t.id}
          role={t.variant === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          className={cn(
            'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border bg-white px-3 py-2 text-stone-900 shadow-lg sm:p-4 dark:bg-stone-900 dark:text-stone-100',
            i < toasts.length - 1 && 'max-sm:hidden',
            styles[t.variant],
          )}
        >
          <span
            className={cn(
              'grid size-6 shrink-0 place-items-center rounded-full sm:mt-0.5',
              t.variant === 'success' && 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300',
              t.variant === 'error' && 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
              t.variant === 'info' && 'bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300',
            )}
          >
            {t.variant === 'error' ? <XIcon className="size-4" /> : <CheckIcon className="size-4" />}
          </span>
          <div className="min-w-0 flex-1 text-sm max-sm:line-clamp-2 sm:text-base">
            <p className="font-semibold max-sm:inline">{t.title}</p>
            {t.description && (
              <p className="text-sm text-stone-700 max-sm:inline max-sm:before:content-['_—_'] sm:mt-0.5 dark:text-stone-300">
                {t.description}
              </p>
            )}
          </div>
          <button
            type="button"
            onClick={() => dismiss(t.id)}
            aria-label={translate('ui.dismiss')}
            className="rounded-md p-1 text-stone-500 hover:text-stone-900 dark:hover:text-white"
          >
            <XIcon className="size-4" />
          </button>
        </div>
      ))}
    </div>
  );
}
