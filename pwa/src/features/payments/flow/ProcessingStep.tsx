import type { Ref } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { SmartphoneIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { usePaymentsT } from '../messages.ts';
import { InstructionList } from './InstructionList.tsx';
import { STEP_HEADING } from './steps.ts';

/**
 * Waiting for the phone. One message throughout: the plan starts by itself once paid, here or not (decision 0181);
 * after the first half-minute the payer may check, send the prompt again, use another number or cancel.
 */
export function ProcessingStep({
  instructions,
  reference,
  exhausted,
  checking,
  busy,
  error,
  headingRef,
  onCheckAgain,
  onResend,
  onOtherNumber,
  onCancel,
}: {
  instructions: string;
  reference?: string;
  exhausted: boolean;
  checking: boolean;
  busy: 'resend' | 'cancel' | null;
  error: string | null;
  headingRef: Ref<HTMLHeadingElement>;
  onCheckAgain: () => void;
  onResend: () => void;
  onOtherNumber: () => void;
  onCancel: () => void;
}) {
  const t = usePaymentsT();
  return (
    <Card>
      <div className="flex justify-center text-brand-700 dark:text-brand-400">
        {exhausted ? <SmartphoneIcon className="size-12" /> : <Spinner className="size-12" label="" />}
      </div>
      <h2 ref={headingRef} className={`${STEP_HEADING} mt-4 text-center text-xl font-bold`}>
        {t('payments.processing.title')}
      </h2>
      <p className="mt-2 text-center text-stone-700 dark:text-stone-300">{t('payments.processing.text')}</p>
      {reference && (
        <p className="mt-1 text-center text-sm text-stone-600 dark:text-stone-400">
          {t('payments.common.reference')} <span className="font-mono font-semibold">{reference}</span>
        </p>
      )}
      {instructions && (
        <div className="mt-5 rounded-xl bg-stone-100 p-4 dark:bg-stone-800">
          <h3 id="charge-steps" className="mb-2 text-sm font-semibold">
            {t('payments.processing.onPhone')}
          </h3>
          <InstructionList text={instructions} labelledBy="charge-steps" />
        </div>
      )}
      <div role="status" aria-live="polite" className="mt-5 text-center">
        {exhausted && (
          <p className="text-sm text-stone-700 dark:text-stone-300">{t('payments.processing.noApproval')}</p>
        )}
      </div>
      {exhausted && (
        <div className="mt-4 flex flex-wrap justify-center gap-2">
          <Button size="sm" onClick={onResend} loading={busy === 'resend'} disabled={busy !== null}>
            {t('payments.prompt.resend')}
          </Button>
          <Button size="sm" variant="outline" onClick={onOtherNumber} disabled={busy !== null}>
            {t('payments.prompt.otherNumber')}
          </Button>
          <Button size="sm" variant="outline" onClick={onCheckAgain} loading={checking} disabled={busy !== null}>
            {t('payments.common.checkAgain')}
          </Button>
          <Button size="sm" variant="ghost" onClick={onCancel} loading={busy === 'cancel'} disabled={busy !== null}>
            {t('payments.prompt.cancel')}
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="mt-3 text-center text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Card>
  );
}
