import { create } from 'zustand';

/** Service-worker update state; registration is started by `service-worker-start.ts`. */
interface PwaState {
  updateAvailable: boolean;
  applyUpdate: (() => void) | null;
}

export const usePwaStore = create<PwaState>()(() => ({ updateAvailable: false, applyUpdate: null }));
