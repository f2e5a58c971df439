import type { ReactNode } from 'react';
import { useCommonT } from '../../lib/common-messages.ts';
import { Button, type ButtonVariant } from './Button.tsx';
import { Modal, ModalDescription, ModalTitle } from './Modal.tsx';

/** A modal yes/no question, for destructive actions by default (focus trapped, Escape and the backdrop say no). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
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
  const t = useCommonT();
  return (
    <Modal open={open} onClose={onClose}>
      <ModalTitle>{title}</ModalTitle>
      <ModalDescription as="div" className="mt-2 space-y-2">
        {children}
      </ModalDescription>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose} disabled={busy}>
          {cancelLabel ?? t('common.cancel')}
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
