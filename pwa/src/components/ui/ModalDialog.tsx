import { Description, Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn.ts';

const widths = { md: 'max-w-md', lg: 'max-w-lg', '2xl': 'max-w-2xl' } as const;

/**
 * The open modal behind `Modal.tsx`: Headless UI's dialog (focus trapped and returned, Escape and the backdrop close
 * it, the page behind inert), a sheet from the bottom on a phone and centred from `sm` up. The panel scrolls inside
 * the screen when it is taller than a small phone. Loaded the first time a modal opens.
 */
export function ModalDialog({
  onClose,
  width = 'md',
  className,
  children,
}: {
  onClose: () => void;
  width?: keyof typeof widths;
  /** Padding or anything else the panel needs beyond the common look. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-stone-950/60" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-4 sm:items-center">
          <DialogPanel
            className={cn(
              'w-full rounded-2xl border border-stone-200 bg-white p-6 shadow-xl dark:border-stone-800 dark:bg-stone-900',
              widths[width],
              className,
            )}
          >
            {children}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}

export function DialogHeading({ className, ...rest }: ComponentProps<typeof DialogTitle>) {
  return <DialogTitle className={cn('text-lg font-bold break-words', className as string)} {...rest} />;
}

export function DialogText({ className, ...rest }: ComponentProps<typeof Description>) {
  return <Description className={cn('text-sm text-stone-700 dark:text-stone-300', className as string)} {...rest} />;
}
