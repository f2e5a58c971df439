import { create } from 'zustand';

export type ToastVariant = 'success' | 'error' | 'info';

interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
}

interface ToastState {
  toasts: Toast[];
  push: (toast: Omit<Toast, 'id' | 'durationMs'> & { durationMs?: number }) => number;
  dismiss: (id: number) => void;
}

/** At most this many toasts show at once; older ones give way. */
const MAX_SHOWN = 3;

let nextId = 1;

/**
 * One message per error: a new error replaces any error still showing (the old one is stale by
 * definition), and a toast equal to one already showing replaces it instead of stacking.
 */
export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  push: (toast) => {
    const id = nextId++;
    const durationMs = toast.durationMs ?? (toast.variant === 'error' ? 7000 : 5000);
    const kept = get().toasts.filter(
      (t) =>
        !(toast.variant === 'error' && t.variant === 'error') &&
        !(t.title === toast.title && t.description === toast.description),
    );
    set({ toasts: [...kept.slice(-(MAX_SHOWN - 1)), { ...toast, id, durationMs }] });
    globalThis.setTimeout(() => get().dismiss(id), durationMs);
    return id;
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
}));

/**
 * Shows a toast: `toast.success('Profile updated')`. For things that happen away from the eye (a payment
 * confirmed in the background, a download finished); an error about a field or button belongs inline, there.
 */
export const toast = {
  success: (title: string, description?: string) =>
    useToastStore.getState().push({ title, description, variant: 'success' }),
  error: (title: string, description?: string) =>
    useToastStore.getState().push({ title, description, variant: 'error' }),
  info: (title: string, description?: string) => useToastStore.getState().push({ title, description, variant: 'info' }),
};
