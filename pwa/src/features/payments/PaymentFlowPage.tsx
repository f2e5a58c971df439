import {
  contracts,
  digitsOnly,
  formatDate,
  formatUgx,
  SUPPORT,
  UGANDA_PHONE_PATTERN,
  type MobileNetwork,
  type PaymentOption,
  type VerifyPaymentResponse,
} from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ArrowLeftIcon, CheckIcon, MailIcon, PhoneIcon, SmartphoneIcon } from '../../components/ui/icons.tsx';
import { Input } from '../../components/ui/Input.tsx';
import { PageSpinner, Spinner } from '../../components/ui/Spinner.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { refreshUserProfile } from '../../lib/queries.ts';
import { useSession } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { clearStoredPayment, resolvePayment, writeStoredPayment, type StoredPayment } from './payment-session.ts';

/** SPEC §4 / §9: auto-verification every 5 s, at most 6 attempts; redirect 2 s after success. */
export const VERIFY_INTERVAL_MS = 5000;
export const VERIFY_MAX_ATTEMPTS = 6;
const SUCCESS_REDIRECT_MS = 2000;
const OPTION_TEXT_MAX = 60;

type Step = 'payment-method' | 'phone-input' | 'processing' | 'success';
type Phase = Step | 'review';

const STEPS: Array<{ id: Step; label: string }> = [
  { id: 'payment-method', label: 'Method' },
  { id: 'phone-input', label: 'Phone' },
  { id: 'processing', label: 'Processing' },
  { id: 'success', label: 'Done' },
];

interface Network {
  id: MobileNetwork;
  name: string;
  short: string;
  tone: string;
  instructions: string[];
}

const NETWORKS: Record<MobileNetwork, Network> = {
  MTNmobilemoney: {
    id: 'MTNmobilemoney',
    name: 'MTN Mobile Money',
    short: 'MTN',
    tone: 'bg-yellow-400 text-stone-950',
    instructions: [
      'Dial *165*3# or use the MyMTN app to approve the payment.',
      'Ensure you have sufficient balance on your MTN Mobile Money account.',
    ],
  },
  Mobile_Airtel_UG: {
    id: 'Mobile_Airtel_UG',
    name: 'Airtel Money',
    short: 'Airtel',
    tone: 'bg-red-600 text-white',
    instructions: [
      'Dial *185*3# or use the Airtel Money app to approve the payment.',
      'Ensure you have sufficient balance on your Airtel Money account.',
    ],
  },
};

/** Shown when the payment options cannot be loaded (SPEC §8). */
const DEFAULT_OPTIONS: PaymentOption[] = [
  {
    paymentname: 'MTNmobilemoney',
    logo: '',
    instructions: 'Pay with MTN Mobile Money: dial *165*3# or use the MyMTN app.',
    country: 'Uganda',
    countryCode: 'UG',
  },
  {
    paymentname: 'Mobile_Airtel_UG',
    logo: '',
    instructions: 'Pay with Airtel Money: dial *185*3# or use the Airtel Money app.',
    country: 'Uganda',
    countryCode: 'UG',
  },
];

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}...` : text;
}

function withoutFinalPeriod(text: string): string {
  return text.trim().replace(/\.+$/, '');
}

function isNetwork(name: string): name is MobileNetwork {
  return name in NETWORKS;
}

function StepIndicator({ phase }: { phase: Phase }) {
  const current = STEPS.findIndex((s) => s.id === (phase === 'review' ? 'processing' : phase));
  return (
    <ol className="flex items-center gap-2" aria-label="Payment steps">
      {STEPS.map((step, index) => {
        const done = index < current || phase === 'success';
        const active = index === current;
        return (
          <li
            key={step.id}
            className="flex flex-1 items-center gap-2"
            aria-current={active ? 'step' : undefined}
            data-step={step.id}
          >
            <span
              className={cn(
                'grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold',
                done
                  ? 'bg-green-600 text-white dark:bg-green-500 dark:text-stone-950'
                  : active
                    ? 'bg-brand-600 text-white dark:bg-brand-500 dark:text-stone-950'
                    : 'bg-stone-200 text-stone-600 dark:bg-stone-800 dark:text-stone-300',
              )}
            >
              {done ? <CheckIcon className="size-4" /> : index + 1}
              <span className="sr-only">
                {' '}
                {step.label}
                {done ? ' (done)' : active ? ' (current)' : ''}
              </span>
            </span>
            <span
              aria-hidden="true"
              className={cn(
                'hidden text-xs font-semibold sm:inline',
                active ? 'text-stone-900 dark:text-stone-50' : 'text-stone-500 dark:text-stone-400',
              )}
            >
              {step.label}
            </span>
            {index < STEPS.length - 1 && (
              <span
                aria-hidden="true"
                className={cn(
                  'h-0.5 flex-1 rounded',
                  index < current || phase === 'success' ? 'bg-green-500' : 'bg-stone-200 dark:bg-stone-800',
                )}
              />
            )}
          </li>
        );
      })}
    </ol>
  );
}

function PlanSummary({ payment }: { payment: StoredPayment }) {
  const { plan } = payment;
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3">
      <div>
        <p className="text-lg font-bold">{plan.plan_name}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">One-time payment</p>
      </div>
      <div className="text-right">
        <p className="text-lg font-extrabold">{formatUgx(plan.price_ugx)}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">Access until {formatDate(plan.expires_at)}</p>
      </div>
    </Card>
  );
}

function MethodStep({ token, onChoose }: { token: string; onChoose: (network: MobileNetwork) => void }) {
  const options = useQuery({
    queryKey: ['paymentOptions', token],
    queryFn: async () => (await api(contracts.payments.paymentOptions, { params: { token } })).mobileoption,
    staleTime: Infinity,
    retry: false,
  });

  const failed = options.isError || (options.isSuccess && !options.data.some((o) => isNetwork(o.paymentname)));
  useEffect(() => {
    if (failed) toast.info('Payment Methods Loaded', 'Showing Uganda mobile money options');
  }, [failed]);

  const list = failed ? DEFAULT_OPTIONS : (options.data ?? []).filter((o) => isNetwork(o.paymentname));

  return (
    <Card>
      <CardTitle>Choose your mobile money network</CardTitle>
      {options.isPending ? (
        <div className="flex justify-center py-10 text-brand-600 dark:text-brand-400">
          <Spinner className="size-8" label="Loading payment methods" />
        </div>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {list.map((option) => {
            const network = NETWORKS[option.paymentname as MobileNetwork];
            return (
              <li key={network.id}>
                <button
                  type="button"
                  onClick={() => onChoose(network.id)}
                  className="flex h-full w-full flex-col items-start gap-3 rounded-2xl border-2 border-stone-200 p-4 text-left transition hover:border-brand-500 focus-visible:border-brand-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-400 dark:border-stone-700 dark:hover:border-brand-400"
                >
                  <span className="flex items-center gap-3">
                    <span
                      aria-hidden="true"
                      className={cn(
                        'grid h-10 min-w-14 place-items-center rounded-lg px-2 text-sm font-black',
                        network.tone,
                      )}
                    >
                      {network.short}
                    </span>
                    <span className="text-lg font-bold">{network.name}</span>
                  </span>
                  {option.instructions && (
                    <span className="text-sm text-stone-600 dark:text-stone-400" title={option.instructions}>
                      {truncate(option.instructions, OPTION_TEXT_MAX)}
                    </span>
                  )}
                  <ul className="space-y-1 text-sm text-stone-700 dark:text-stone-300">
                    {network.instructions.map((line) => (
                      <li key={line} className="flex items-start gap-1.5">
                        <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-green-600 dark:text-green-400" />
                        {line}
                      </li>
                    ))}
                  </ul>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function PhoneStep({
  network,
  price,
  pending,
  onBack,
  onPay,
}: {
  network: Network;
  price: string;
  pending: boolean;
  onBack: () => void;
  onPay: (phone: string) => void;
}) {
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const digits = digitsOnly(phone);
    if (!phone.trim()) {
      setError('Please enter your phone number');
      toast.error('Phone Number Required', 'Please enter your phone number');
      return;
    }
    if (!UGANDA_PHONE_PATTERN.test(digits)) {
      const message = 'Please enter a valid Uganda phone number (e.g., 256712345678 or 0712345678)';
      setError(message);
      toast.error('Invalid Phone Number', message);
      return;
    }
    setError(null);
    onPay(digits);
  };

  return (
    <Card>
      <div className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className={cn('grid h-10 min-w-14 place-items-center rounded-lg px-2 text-sm font-black', network.tone)}
        >
          {network.short}
        </span>
        <CardTitle>{network.name}</CardTitle>
      </div>
      <ul className="mt-3 space-y-1 text-sm text-stone-700 dark:text-stone-300">
        {network.instructions.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
        <Input
          label="Phone Number"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="0772123456"
          hint={`The ${network.name} number that will pay, e.g. 0772123456 or 256772123456.`}
          value={phone}
          onChange={(e) => {
            setPhone(e.target.value);
            if (error) setError(null);
          }}
          error={error}
          required
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button variant="outline" onClick={onBack} disabled={pending}>
            <ArrowLeftIcon className="size-4" /> Change method
          </Button>
          <Button type="submit" size="lg" className="flex-1" loading={pending}>
            Pay {price} Now
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ProcessingStep({
  instructions,
  exhausted,
  checking,
  onCheckAgain,
}: {
  instructions: string;
  exhausted: boolean;
  checking: boolean;
  onCheckAgain: () => void;
}) {
  return (
    <Card className="text-center">
      <div className="flex justify-center text-brand-600 dark:text-brand-400">
        {exhausted ? <SmartphoneIcon className="size-12" /> : <Spinner className="size-12" label="" />}
      </div>
      <h2 className="mt-4 text-xl font-bold">Waiting for your payment</h2>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        Please complete the payment on your phone. We&apos;ll activate your subscription automatically.
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        This usually takes 10-30 seconds. Please don&apos;t close this page.
      </p>
      {instructions && (
        <div className="mt-5 rounded-xl bg-stone-100 p-4 text-left text-sm whitespace-pre-line dark:bg-stone-800">
          <p className="mb-1 font-semibold">Instructions</p>
          {instructions}
        </div>
      )}
      <div role="status" aria-live="polite" className="mt-5">
        {exhausted && (
          <>
            <p className="text-sm text-stone-700 dark:text-stone-300">
              We haven&apos;t received your payment yet. Your subscription will be activated automatically when the
              payment arrives, even if you leave this page.
            </p>
            <Button className="mt-4" onClick={onCheckAgain} loading={checking}>
              Check again
            </Button>
          </>
        )}
      </div>
    </Card>
  );
}

function SuccessStep({ planName }: { planName: string }) {
  return (
    <Card className="text-center">
      <span className="mx-auto grid size-16 place-items-center rounded-full bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300">
        <CheckIcon className="size-8" />
      </span>
      <h2 className="mt-4 text-2xl font-extrabold">Payment Successful!</h2>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        Your <span className="font-semibold">{planName}</span> plan is now active.
      </p>
      <p className="mt-1 flex items-center justify-center gap-1.5 text-sm text-stone-600 dark:text-stone-400">
        <MailIcon className="size-4" /> A receipt has been sent to your email.
      </p>
      <LinkButton to="/dashboard" replace size="lg" className="mt-6">
        Go to Dashboard
      </LinkButton>
      <p className="mt-3 text-xs text-stone-500 dark:text-stone-400">Taking you to your dashboard…</p>
    </Card>
  );
}

function ReviewStep({ result }: { result: VerifyPaymentResponse | null }) {
  return (
    <Card role="alert">
      <h2 className="text-xl font-bold text-amber-700 dark:text-amber-300">Payment under review</h2>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        We received a payment, but the amount didn&apos;t match the price of your plan. Our support team will review it
        and activate your subscription or refund you.
      </p>
      {result && (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Reference: <span className="font-mono">{result.transaction_id}</span>
        </p>
      )}
      <ul className="mt-4 space-y-2 text-sm">
        <li>
          <a href={SUPPORT.whatsappHref} target="_blank" rel="noreferrer" className="font-semibold underline">
            Chat with support on WhatsApp
          </a>
        </li>
        <li className="flex items-center gap-1.5">
          <PhoneIcon className="size-4" />
          <a href={SUPPORT.phoneHref} className="underline">
            {SUPPORT.phone}
          </a>
        </li>
        <li className="flex items-center gap-1.5">
          <MailIcon className="size-4" />
          <a href={`mailto:${SUPPORT.email}`} className="underline">
            {SUPPORT.email}
          </a>
        </li>
      </ul>
      <LinkButton to="/dashboard" variant="outline" className="mt-6">
        Go to Dashboard
      </LinkButton>
    </Card>
  );
}

function PaymentFlow({ initial }: { initial: StoredPayment }) {
  const navigate = useNavigate();
  const [payment, setPayment] = useState<StoredPayment>(initial);
  const [phase, setPhase] = useState<Phase>(initial.charged ? 'processing' : 'payment-method');
  const [network, setNetwork] = useState<MobileNetwork>(
    initial.mno && isNetwork(initial.mno) ? initial.mno : 'MTNmobilemoney',
  );
  const [charging, setCharging] = useState(false);
  const [checking, setChecking] = useState(false);
  const [exhausted, setExhausted] = useState(false);
  const [pollRound, setPollRound] = useState(0);
  const [review, setReview] = useState<VerifyPaymentResponse | null>(null);
  const settled = useRef(false);

  const token = payment.dpoToken;

  const save = useCallback((next: StoredPayment) => {
    setPayment(next);
    writeStoredPayment(next);
  }, []);

  useEffect(() => {
    writeStoredPayment(initial);
  }, [initial]);

  /** Acts on a verification answer; true when the payment reached a final state. */
  const settle = useCallback(
    (result: VerifyPaymentResponse): boolean => {
      if (settled.current) return true;
      switch (result.status) {
        case 'pending':
          return false;
        case 'completed':
          settled.current = true;
          clearStoredPayment();
          setPhase('success');
          toast.success('Success! 🎉', 'Your subscription is now active!');
          void refreshUserProfile().catch((error: unknown) => console.error('Profile refresh failed', error));
          void queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory });
          return true;
        case 'review':
          settled.current = true;
          clearStoredPayment();
          setReview(result);
          setPhase('review');
          void queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory });
          return true;
        case 'failed':
        case 'expired': {
          settled.current = true;
          clearStoredPayment();
          const explanation = result.resultExplanation || 'Unknown error.';
          toast.error('Payment Failed', `Payment verification failed: ${explanation}`);
          void queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory });
          const params = new URLSearchParams({
            error: explanation,
            transaction_id: result.transaction_id || payment.transactionId,
            plan_name: result.plan_name || payment.plan.plan_name,
          });
          void navigate(`/checkout/failed?${params.toString()}`, { replace: true });
          return true;
        }
      }
    },
    [navigate, payment.plan.plan_name, payment.transactionId],
  );

  const verifyOnce = useCallback(
    async (signal?: AbortSignal) => {
      const result = await api(contracts.payments.verify, { params: { token } }, { signal });
      return { result, final: settle(result) };
    },
    [settle, token],
  );

  // Resume with the server's real state: verify once on mount.
  useEffect(() => {
    const controller = new AbortController();
    api(contracts.payments.verify, { params: { token } }, { signal: controller.signal })
      .then((result) => settle(result))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Payment status check failed', error);
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount
  }, []);

  // Auto-verification while processing: every 5 s, at most 6 attempts; errors are only logged.
  useEffect(() => {
    if (phase !== 'processing') return;
    const controller = new AbortController();
    let attempts = 0;
    let timer = 0;
    const tick = async () => {
      attempts += 1;
      try {
        const { final } = await verifyOnce(controller.signal);
        if (final || controller.signal.aborted) return;
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('Auto-verification failed', error);
      }
      if (attempts >= VERIFY_MAX_ATTEMPTS) {
        setExhausted(true);
        return;
      }
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
    save({ ...payment, mno: id });
    setPhase('phone-input');
  };

  const pay = async (phoneNumber: string) => {
    setCharging(true);
    try {
      const result = await api(contracts.payments.chargeMobile, {
        body: { transaction_id: payment.transactionId, phoneNumber, mno: network },
      });
      if (!result.instructions) {
        toast.error('Payment Error', 'No payment instructions received.');
        setPhase('phone-input');
        return;
      }
      save({ ...payment, mno: network, charged: true, instructions: result.instructions });
      if (result.status !== 'pending') {
        // The provider already answered (e.g. declined at once): let verification say how it ended.
        const { final } = await verifyOnce().catch(() => ({ final: false }));
        if (final) return;
      }
      setExhausted(false);
      setPhase('processing');
      toast.info('Follow the instructions on your phone to complete payment.');
    } catch (error) {
      toast.error(
        'Payment Error',
        `Failed to charge mobile money: ${withoutFinalPeriod(errorMessage(error, 'Please try again'))}.`,
      );
      setPhase('phone-input');
    } finally {
      setCharging(false);
    }
  };

  const checkAgain = async () => {
    setChecking(true);
    try {
      const { final } = await verifyOnce();
      if (!final) {
        setExhausted(false);
        setPollRound((n) => n + 1);
      }
    } catch (error) {
      console.error('Payment status check failed', error);
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="space-y-6">
      <StepIndicator phase={phase} />
      <PlanSummary payment={payment} />
      <div aria-live="polite">
        {phase === 'payment-method' && <MethodStep token={token} onChoose={choose} />}
        {phase === 'phone-input' && (
          <PhoneStep
            network={NETWORKS[network]}
            price={formatUgx(payment.plan.price_ugx)}
            pending={charging}
            onBack={() => setPhase('payment-method')}
            onPay={(phone) => void pay(phone)}
          />
        )}
        {phase === 'processing' && (
          <ProcessingStep
            instructions={payment.instructions ?? ''}
            exhausted={exhausted}
            checking={checking}
            onCheckAgain={() => void checkAgain()}
          />
        )}
        {phase === 'success' && <SuccessStep planName={payment.plan.plan_name} />}
        {phase === 'review' && <ReviewStep result={review} />}
      </div>
    </div>
  );
}

export default function PaymentFlowPage() {
  const location = useLocation();
  const { status } = useSession();
  const [{ payment, missingTransaction }] = useState(() => resolvePayment(location.state));

  useEffect(() => {
    if (status !== 'loading' && status === 'user' && missingTransaction) {
      toast.error('Transaction not found. Please try again.');
    }
  }, [status, missingTransaction]);

  if (status === 'loading') return <PageSpinner label="Loading your account" />;
  if (status !== 'user' || !payment) return <Navigate to="/subscription" replace />;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-2xl px-4 py-6 sm:px-6 sm:py-10">
        <LinkButton to="/subscription" variant="ghost" size="sm" className="-ml-2">
          <ArrowLeftIcon className="size-4" /> Back to plans
        </LinkButton>
        <h1 className="mt-3 text-2xl font-extrabold tracking-tight sm:text-3xl">Complete your payment</h1>
        <div className="mt-6">
          <PaymentFlow initial={payment} />
        </div>
      </main>
    </div>
  );
}
