import type { ReactNode } from 'react';
import { XIcon } from '../../../components/ui/icons.tsx';
import { Modal, ModalDescription, ModalTitle } from '../../../components/ui/Modal.tsx';

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
    <Modal open={open} onClose={onClose} width={wide ? '2xl' : 'lg'}>
      <div className="flex items-start justify-between gap-4">
        <ModalTitle>{title}</ModalTitle>
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
        <ModalDescription as="div" className="mt-1 text-stone-600 dark:text-stone-400">
          {description}
        </ModalDescription>
      )}
      <div className="mt-5">{children}</div>
    </Modal>
  );
}
