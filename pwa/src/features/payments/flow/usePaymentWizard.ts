import {
  contracts,
  isMobileNetwork,
  trimTrailing,
  type MobileNetwork,
  type VerifyPaymentResponse,
} from '@filamu/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, errorMessage, isApiError } from '../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';
import { refreshUserProfile } from '../../../lib/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { paymentsT } from '../messages.ts';
import { clearStoredPayment, writeStoredPayment, type StoredPayment } from '../payment-session.ts';
import { SUCCESS_REDIRECT_MS, VERIFY_INTERVAL_MS, VERIFY_MAX_ATTEMPTS, type ChargeError, type Phase } from './steps.ts';

function withoutFinalPeriod(text: string): string {
  return trimTrailing(text.trim(), '.');
}

/** A refused charge: the server's words about the number go beside the field, anything else under Pay. */
function chargeError(error: unknown): ChargeError {
  if (
    isApiError(error) &&
    (error.code === 'validation_error' || error.code === 'bad_request' || error.code === 'wrong_network')
  ) {
    const issue = error.issues.find((i) => i.path === 'phoneNumber');
    return { target: 'phone', message: issue?.message ?? error.message };
  }
  const reason =
    isApiError(error) && error.message ? withoutFinalPeriod(error.message) : paymentsT('payments.charge.tryAgain');
  return { target: 'action', message: paymentsT('payments.charge.failed', { reason }) };
}

/**
 * The payment wizard's state (product §4): the chosen network, the charge, auto-verification every 5 s for at most
 * 6 attempts, and where a settled payment goes. The server decides how a payment ended; this only follows it.
 */
export function usePaymentWizard(initial: StoredPayment) {
  const navigate = useNavigate();
  const [payment, setPayment] = useState<StoredPayment>(initial);
  const [phase, setPhase] = useState<Phase>(initial.charged ? 'processing' : 'payment-method');
  const [network, setNetwork] = useState<MobileNetwork>(
    initial.mno && isMobileNetwork(initial.mno) ? initial.mno : 'MTNmobilemoney',
  );
  const [charging, setCharging] = useState(false);
  const [error, setError] = useState<ChargeError | null>(null);
  const [checking, setChecking] = useState(false);
  const [exhausted, setExhausted] = useState(false);
  const [pollRound, setPollRound] = useState(0);
  const [busy, setBusy] = useState<'resend' | 'cancel' | null>(null);
  const [waitError, setWaitError] = useState<string | null>(null);
  const settled = useRef(false);
  const token = payment.dpoToken;

  const save = useCallback((next: StoredPayment) => {
    setPayment(next);
    writeStoredPayment(next);
  }, []);

  useEffect(() => writeStoredPayment(initial), [initial]);

  /** Acts on a verification answer; true when the payment reached a final state. */
  const settle = useCallback(
    (result: VerifyPaymentResponse): boolean => {
      if (settled.current) return true;
      if (result.status === 'pending') return false;
      settled.current = true;
      clearStoredPayment();
      void queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory });
      void queryClient.invalidateQueries({ queryKey: queryKeys.waitingPayment });
      if (result.status === 'completed') {
        setPhase('success');
        // The success is on screen; the toast still tells a payer who looked away to their phone.
        toast.success(paymentsT('payments.success.toastTitle'), paymentsT('payments.success.toastText'));
        void refreshUserProfile().catch((e: unknown) => console.error('Profile refresh failed', e));
      } else if (result.status === 'review') {
        setPhase('review');
      } else {
        // The failure page asks the server again; only the reference travels in the address.
        const params = new URLSearchParams({ transaction_id: result.transaction_id || payment.transactionId });
        void navigate(`/checkout/failed?${params.toString()}`, { replace: true });
      }
      return true;
    },
    [navigate, payment.transactionId],
  );

  const verifyOnce = useCallback(
    async (signal?: AbortSignal) => settle(await api(contracts.payments.verify, { params: { token } }, { signal })),
    [settle, token],
  );

  // Resume with the server's real state: verify once on mount.
  useEffect(() => {
    const controller = new AbortController();
    api(contracts.payments.verify, { params: { token } }, { signal: controller.signal })
      .then((result) => settle(result))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) console.error('Payment status check failed', e);
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount
  }, []);

  // Auto-verification while processing; its errors are only logged (product §8).
  useEffect(() => {
    if (phase !== 'processing') return;
    const controller = new AbortController();
    let attempts = 0;
    let timer = 0;
    const tick = async () => {
      attempts += 1;
      try {
        if ((await verifyOnce(controller.signal)) || controller.signal.aborted) return;
      } catch (e) {
        if (controller.signal.aborted) return;
        console.error('Auto-verification failed', e);
      }
      if (attempts >= VERIFY_MAX_ATTEMPTS) return setExhausted(true);
      timer = window.setTimeout(() => void tick(), VERIFY_INTERVAL_MS);
    };
    timer = window.setTimeout(() => void tick(), VERIFY_INTERVAL_MS);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [phase, pollRound, verifyOnce]);

  // Success: on to the dashboard after 2 s.
  useEffect(() => {
    if (phase !== 'success') return;
    const timer = window.setTimeout(() => void navigate('/dashboard', { replace: true }), SUCCESS_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [phase, navigate]);

  const choose = (id: MobileNetwork) => {
    setNetwork(id);
    setError(null);
    save({ ...payment, mno: id });
    setPhase('phone-input');
  };

  const pay = async (phoneNumber: string) => {
    setCharging(true);
    setError(null);
    try {
      const result = await api(contracts.payments.chargeMobile, {
        body: { transaction_id: payment.transactionId, phoneNumber, mno: network },
      });
      if (!result.instructions) {
        setError({ target: 'action', message: paymentsT('payments.charge.noInstructions') });
        return;
      }
      save({ ...payment, mno: network, phone: phoneNumber, charged: true, instructions: result.instructions });
      void queryClient.invalidateQueries({ queryKey: queryKeys.waitingPayment });
      // The provider may have answered already (e.g. declined at once): verification says how it ended.
      if (result.status !== 'pending' && (await verifyOnce().catch(() => false))) return;
      setExhausted(false);
      setPhase('processing');
    } catch (e) {
      // A 401 has already sent the person to /login.
      if (!(isApiError(e) && e.status === 401)) setError(chargeError(e));
    } finally {
      setCharging(false);
    }
  };

  /** The same number again: a new prompt (the server counts it against the prompt limits). */
  const resend = async () => {
    if (!payment.phone) return setPhase('phone-input');
    setBusy('resend');
    setWaitError(null);
    try {
      const result = await api(contracts.payments.chargeMobile, {
        body: { transaction_id: payment.transactionId, phoneNumber: payment.phone, mno: network },
      });
      save({ ...payment, instructions: result.instructions || payment.instructions });
      setExhausted(false);
      setPollRound((n) => n + 1);
    } catch (e) {
      if (!(isApiError(e) && e.status === 401))
        setWaitError(
          paymentsT('payments.prompt.notSent', {
            reason: errorMessage(e, paymentsT('payments.common.tryAgainSentence')),
          }),
        );
    } finally {
      setBusy(null);
    }
  };

  const cancel = async () => {
    setBusy('cancel');
    setWaitError(null);
    try {
      const result = await api(contracts.payments.cancel, { params: { transaction_id: payment.transactionId } });
      if (!settle(result)) setWaitError(paymentsT('payments.prompt.stillWaiting'));
    } catch (e) {
      if (!(isApiError(e) && e.status === 401)) {
        setWaitError(
          paymentsT('payments.prompt.notCancelled', {
            reason: errorMessage(e, paymentsT('payments.common.tryAgainSentence')),
          }),
        );
        // A prompt approved at that moment completes the payment: the check says so.
        void verifyOnce().catch(() => false);
      }
    } finally {
      setBusy(null);
    }
  };

  const checkAgain = async () => {
    setChecking(true);
    try {
      if (!(await verifyOnce())) {
        setExhausted(false);
        setPollRound((n) => n + 1);
      }
    } catch (e) {
      console.error('Payment status check failed', e);
    } finally {
      setChecking(false);
    }
  };

  return {
    payment,
    phase,
    network,
    charging,
    error,
    checking,
    exhausted,
    busy,
    waitError,
    choose,
    resend: () => void resend(),
    cancel: () => void cancel(),
    otherNumber: () => {
      setWaitError(null);
      save({ ...payment, unapprovedPhone: payment.phone });
      setPhase('phone-input');
    },
    /** The number typed belongs to the other network: pay with that one, staying on the phone step. */
    switchNetwork: (id: MobileNetwork) => {
      setNetwork(id);
      setError(null);
      save({ ...payment, mno: id });
    },
    pay: (phone: string) => void pay(phone),
    checkAgain: () => void checkAgain(),
    clearError: () => setError(null),
    backToMethod: () => {
      setError(null);
      setPhase('payment-method');
    },
  };
}
