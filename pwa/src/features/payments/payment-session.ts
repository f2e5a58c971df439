import type { CustomerPlan } from '@filamu/shared';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';

/** The payment in flight, as `/checkout/:planId` hands it to `/payment-flow` (navigation state). */
export interface PaymentFlowState {
  plan: CustomerPlan;
  transactionId: string;
  dpoToken: string;
  /** The short reference (FLM-7K3Q9) the payer can quote to support. */
  reference?: string;
}

/** What survives a reload of `/payment-flow`: the hand-over plus whether the phone prompt was already sent. */
export interface StoredPayment extends PaymentFlowState {
  charged?: boolean;
  instructions?: string;
  mno?: string;
  /** The number the last prompt went to (national spelling), offered again by "send the prompt again". */
  phone?: string;
  /** "Use another number": the number that did not approve, named on the phone step and never pre-filled. */
  unapprovedPhone?: string;
}

const KEY = STORAGE_KEYS.payment;

function isFlowState(value: unknown): value is PaymentFlowState {
  const v = value as Partial<PaymentFlowState> | null;
  return (
    !!v &&
    typeof v === 'object' &&
    !!v.plan &&
    typeof v.plan === 'object' &&
    typeof v.plan.id === 'string' &&
    typeof v.transactionId === 'string' &&
    !!v.transactionId &&
    typeof v.dpoToken === 'string' &&
    !!v.dpoToken
  );
}

function readStoredPayment(): StoredPayment | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return isFlowState(value) ? (value as StoredPayment) : null;
  } catch {
    return null;
  }
}

export function writeStoredPayment(value: StoredPayment): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    /* storage unavailable: the flow still works until a reload */
  }
}

export function clearStoredPayment(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* storage unavailable */
  }
}

/**
 * The payment to show: navigation state wins (a fresh hand-over from checkout), else the stored one
 * when it is the same transaction or there is no state at all.
 * `missingTransaction` is true when state was passed but holds no transaction.
 */
export function resolvePayment(state: unknown): { payment: StoredPayment | null; missingTransaction: boolean } {
  const stored = readStoredPayment();
  if (isFlowState(state)) {
    if (stored && stored.transactionId === state.transactionId) return { payment: stored, missingTransaction: false };
    return { payment: state as StoredPayment, missingTransaction: false };
  }
  if (state && typeof state === 'object' && 'plan' in state) {
    return { payment: null, missingTransaction: true };
  }
  return { payment: stored, missingTransaction: !stored };
}
