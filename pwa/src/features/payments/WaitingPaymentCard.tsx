import { contracts, formatUgx, MOBILE_MONEY, type CustomerPlan, type WaitingPayment } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SmartphoneIcon } from '../../components/ui/icons.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { toast } from '../../lib/toast.ts';
import { usePaymentsT } from './messages.ts';
import { writeStoredPayment, type StoredPayment } from './payment-session.ts';
import { useSubscriptionPlans, useWaitingPayment } from './queries.ts';

/** 256772000005 → 0772 000 005, as people write their own number. */
function nationalPhone(phone: string | null): string {
  if (!phone) return '';
  const local = phone.startsWith('256') ? `0${phone.slice(3)}` : phone;
  return local.length === 10 ? `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}` : local;
}

/** The flow's hand-over for a waiting payment; the plan as sold, or as much of it as the payment remembers. */
function flowState(payment: WaitingPayment, plans: CustomerPlan[] | undefined, charged: boolean): StoredPayment {
  const phone = payment.phone ? nationalPhone(payment.phone).replace(/ /g, '') : undefined;
  const plan = plans?.find((p) => p.id === payment.plan_id) ?? {
    id: payment.plan_id,
    plan_name: payment.plan_name,
    price_ugx: String(payment.amount),
    description: '',
    features: [],
    display_order: 0,
    global_expiry_date: '',
    expires_at: payment.expires_at,
    // Already bought: no cut-off or warning to tell any more.
    sale_ends_at: payment.expires_at,
    warn_from: payment.expires_at,
    includes_english: false,
  };
  return {
    plan,
    transactionId: payment.transaction_id,
    dpoToken: payment.dpo_token,
    reference: payment.reference,
    charged,
    mno: payment.mno ?? undefined,
    phone,
    // Not charged again here means "Use another number": the waiting number did not approve.
    unapprovedPhone: charged ? undefined : phone,
  };
}

/**
 * A payment whose prompt went to a phone and is not settled: on the dashboard and the plans page, so the person
 * finishes or cancels it rather than starting a second one that could be charged too (decision 0181).
 */
export function WaitingPaymentCard({ className }: { className?: string }) {
  const t = usePaymentsT();
  const waiting = useWaitingPayment();
  const plans = useSubscriptionPlans();
  const navigate = useNavigate();
  const payment = waiting.data;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.waitingPayment }),
      queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory }),
    ]);

  const resend = useMutation({
    mutationFn: (p: WaitingPayment) =>
      api(contracts.payments.chargeMobile, {
        body: { transaction_id: p.transaction_id, phoneNumber: p.phone ?? '', mno: p.mno ?? 'MTNmobilemoney' },
      }),
    onSuccess: (result, p) => {
      const state = { ...flowState(p, plans.data, true), instructions: result.instructions };
      writeStoredPayment(state);
      void navigate('/payment-flow', { state });
    },
  });
  const cancel = useMutation({
    mutationFn: (p: WaitingPayment) => api(contracts.payments.cancel, { params: { transaction_id: p.transaction_id } }),
    onSuccess: (result) => {
      toast.success(
        t('payments.waiting.cancelledTitle'),
        t('payments.waiting.cancelledText', { reference: result.reference }),
      );
      void refresh();
    },
    onError: () => void refresh(),
  });

  if (!payment) return null;
  const network = payment.mno ? MOBILE_MONEY[payment.mno].name : t('payments.waiting.mobileMoney');
  const busy = resend.isPending || cancel.isPending;
  const failure = resend.error
    ? t('payments.prompt.notSent', { reason: errorMessage(resend.error, t('payments.common.tryAgainSentence')) })
    : cancel.error
      ? t('payments.prompt.notCancelled', {
          reason: errorMessage(cancel.error, t('payments.common.tryAgainSentence')),
        })
      : null;
  const details = {
    amount: formatUgx(payment.amount),
    plan: payment.plan_name,
    network,
    phone: nationalPhone(payment.phone),
  };
  return (
    <Card role="region" aria-labelledby="waiting-payment" className={className}>
      <div className="flex items-start gap-3">
        <SmartphoneIcon aria-hidden="true" className="mt-1 size-6 shrink-0 text-brand-700 dark:text-brand-400" />
        <div className="min-w-0">
          <h2 id="waiting-payment" className="text-lg font-bold">
            {t('payments.waiting.title')}
          </h2>
          <p className="mt-1 text-sm break-words text-stone-700 dark:text-stone-300">
            {payment.phone ? t('payments.waiting.textPhone', details) : t('payments.waiting.text', details)}
          </p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {t('payments.common.reference')} <span className="font-mono font-semibold">{payment.reference}</span>
          </p>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" loading={resend.isPending} disabled={busy} onClick={() => resend.mutate(payment)}>
          {t('payments.prompt.resend')}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => {
            const state = flowState(payment, plans.data, false);
            writeStoredPayment(state);
            void navigate('/payment-flow', { state });
          }}
        >
          {t('payments.prompt.otherNumber')}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          loading={cancel.isPending}
          disabled={busy}
          onClick={() => cancel.mutate(payment)}
        >
          {t('payments.prompt.cancel')}
        </Button>
      </div>
      {failure && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
          {failure}
        </p>
      )}
    </Card>
  );
}
