import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { ArrowLeftIcon } from '../../components/ui/icons.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { focusHeading, useDocumentTitle } from '../../lib/page.ts';
import { toast } from '../../lib/toast.ts';
import { MethodStep } from './flow/MethodStep.tsx';
import { PhoneStep } from './flow/PhoneStep.tsx';
import { PlanSummary } from './flow/PlanSummary.tsx';
import { ProcessingStep } from './flow/ProcessingStep.tsx';
import { ReviewStep } from './flow/ReviewStep.tsx';
import { StepIndicator } from './flow/StepIndicator.tsx';
import { SuccessStep } from './flow/SuccessStep.tsx';
import { usePaymentWizard } from './flow/usePaymentWizard.ts';
import { usePaymentsT } from './messages.ts';
import { resolvePayment, type StoredPayment } from './payment-session.ts';
import { usePurchaser } from './purchaser.ts';
import { StaffNote } from './StaffNote.tsx';

function PaymentFlow({ initial }: { initial: StoredPayment }) {
  const wizard = usePaymentWizard(initial);
  const { payment, phase } = wizard;
  const heading = useRef<HTMLHeadingElement>(null);
  const opened = useRef(false);

  // Each new step's heading takes focus; the first one is left to the page's own <h1>.
  useEffect(() => {
    if (opened.current) focusHeading(heading.current);
    opened.current = true;
  }, [phase]);

  return (
    <div className="space-y-4 sm:space-y-6">
      <StepIndicator phase={phase} />
      <PlanSummary plan={payment.plan} />
      {phase === 'payment-method' && (
        <MethodStep token={payment.dpoToken} headingRef={heading} onChoose={wizard.choose} />
      )}
      {phase === 'phone-input' && (
        <PhoneStep
          network={wizard.network}
          price={payment.plan.price_ugx}
          pending={wizard.charging}
          error={wizard.error}
          headingRef={heading}
          onEdit={wizard.clearError}
          onBack={wizard.backToMethod}
          onPay={wizard.pay}
          onSwitch={wizard.switchNetwork}
          initialPhone={payment.phone}
          unapprovedPhone={payment.unapprovedPhone}
        />
      )}
      {phase === 'processing' && (
        <ProcessingStep
          instructions={payment.instructions ?? ''}
          reference={payment.reference}
          exhausted={wizard.exhausted}
          checking={wizard.checking}
          busy={wizard.busy}
          error={wizard.waitError}
          headingRef={heading}
          onCheckAgain={wizard.checkAgain}
          onResend={wizard.resend}
          onOtherNumber={wizard.otherNumber}
          onCancel={wizard.cancel}
        />
      )}
      {phase === 'success' && (
        <SuccessStep planName={payment.plan.plan_name} reference={payment.reference} headingRef={heading} />
      )}
      {phase === 'review' && <ReviewStep reference={payment.reference ?? payment.transactionId} headingRef={heading} />}
    </div>
  );
}

export default function PaymentFlowPage() {
  const location = useLocation();
  const purchaser = usePurchaser();
  const [{ payment, missingTransaction }] = useState(() => resolvePayment(location.state));
  const t = usePaymentsT();
  useDocumentTitle(t('payments.flow.docTitle'));

  useEffect(() => {
    if (purchaser === 'user' && missingTransaction) toast.error(t('payments.flow.notFound'));
  }, [purchaser, missingTransaction, t]);

  if (purchaser === 'loading') return <PageSpinner label={t('payments.common.loadingAccount')} />;
  const staff = purchaser === 'agent' || purchaser === 'admin';
  if (!staff && (purchaser !== 'user' || !payment)) return <Navigate to="/subscription" replace />;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-2xl px-4 py-4 sm:px-6 sm:py-10">
        <LinkButton to="/subscription" variant="ghost" size="sm" className="-ml-2">
          <ArrowLeftIcon className="size-4" /> {t('payments.common.backToPlans')}
        </LinkButton>
        <h1 className="mt-2 text-2xl font-extrabold tracking-tight sm:mt-3 sm:text-3xl">{t('payments.flow.title')}</h1>
        <div className="mt-4 sm:mt-6">
          {staff ? <StaffNote kind={purchaser} /> : payment && <PaymentFlow initial={payment} />}
        </div>
      </main>
    </div>
  );
}
