import { lazy, Suspense, useLayoutEffect, useMemo, type ComponentProps, type ReactNode } from 'react';

const dialog = () => import('./ModalDialog.tsx');
const ModalDialog = lazy(() => dialog().then((m) => ({ default: m.ModalDialog })));
const DialogHeading = lazy(() => dialog().then((m) => ({ default: m.DialogHeading })));
const DialogText = lazy(() => dialog().then((m) => ({ default: m.DialogText })));

/**
 * Every modal in the app (see `ModalDialog.tsx` for what it does). A closed modal renders nothing and costs nothing:
 * the dialog's code (Headless UI, about 50 KB) loads the first time one opens, from the phone's cache once the app is
 * installed, so no screen evaluates it on the way to its first paint and a card's closed dialogs are not mounted.
 * Name it with ModalTitle; describe it with ModalDescription.
 */
export function Modal({ open, ...props }: { open: boolean } & ComponentProps<typeof ModalDialog>) {
  useFocusReturn(open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}

/**
 * Focus goes back to what had it when the modal opened (the button that opened it), once it closes or is removed
 * with its parent: the dialog is unmounted on close, so Headless UI's own return does not run.
 */
function useFocusReturn(open: boolean): void {
  // Read while rendering the open modal, before the dialog's effects move focus inside it.
  const opener = useMemo(
    () => (open && document.activeElement instanceof HTMLElement ? document.activeElement : null),
    [open],
  );
  useLayoutEffect(() => {
    if (!opener) return;
    return () => {
      // After this commit: when the modal is removed with its parent, the cleanup runs while the dialog (and its
      // focus trap) is still in the page, and removing it then leaves focus on the body. Focus that went elsewhere
      // on purpose (another dialog) stays there.
      queueMicrotask(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (lost && opener.isConnected) opener.focus();
      });
    };
  }, [opener]);
}

export function ModalTitle(props: ComponentProps<typeof DialogHeading>): ReactNode {
  return <DialogHeading {...props} />;
}

export function ModalDescription(props: ComponentProps<typeof DialogText>): ReactNode {
  return <DialogText {...props} />;
}
