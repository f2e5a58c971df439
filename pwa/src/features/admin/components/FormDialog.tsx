import { Description, Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { XIcon } from '../../../components/ui/icons.tsx';

/**
 * A modal for a form (create/edit, manage, resolve): focus trapped, Escape and the backdrop close it,
 * focus returns to what opened it. The caller puts the form and its buttons in `children`.
 */
export function FormDialog({
  open,
  title,
  description,
  onClose,
  children,
  wide,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-stone-950/60" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-4 sm:items-center">
          <DialogPanel
            className={`w-full ${wide ? 'max-w-2xl' : 'max-w-lg'} rounded-2xl border border-stone-200 bg-white p-6 shadow-xl dark:border-stone-800 dark:bg-stone-900`}
          >
            <div className="flex items-start justify-between gap-4">
              <DialogTitle className="text-lg font-bold">{title}</DialogTitle>
              <button
                type="button"
                onClick={onClose}
                aria-label="Close"
                className="-m-1 rounded-lg p-1 text-stone-500 hover:text-stone-900 dark:hover:text-white"
              >
                <XIcon className="size-5" />
              </button>
            </div>
            {description && (
              <Description as="div" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                {description}
              </Description>
            )}
            <div className="mt-5">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
