import { Description, Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';

/** A modal yes/no question, for destructive actions by default (focus trapped, Escape and the backdrop say no). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy,
  confirmVariant = 'danger',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  /** `primary` for a question that gives something rather than takes it away. */
  confirmVariant?: ButtonVariant;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-stone-950/60" />
      <div className="fixed inset-0 flex items-end justify-center p-4 sm:items-center">
        <DialogPanel className="w-full max-w-md rounded-2xl border border-stone-200 bg-white p-6 shadow-xl dark:border-stone-800 dark:bg-stone-900">
          <DialogTitle className="text-lg font-bold">{title}</DialogTitle>
          <Description as="div" className="mt-2 space-y-2 text-sm text-stone-700 dark:text-stone-300">
            {children}
          </Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Button variant="outline" onClick={onClose} disabled={busy}>
              {cancelLabel}
            </Button>
            <Button variant={confirmVariant} onClick={onConfirm} loading={busy}>
              {confirmLabel}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
