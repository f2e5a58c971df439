import type { Ref } from 'react';
import { LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { CheckIcon, MailIcon } from '../../../components/ui/icons.tsx';
import { usePaymentsT } from '../messages.ts';
import { STEP_HEADING } from './steps.ts';

export function SuccessStep({
  planName,
  reference,
  headingRef,
}: {
  planName: string;
  reference?: string;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const t = usePaymentsT();
  return (
    <Card className="text-center">
      <span className="mx-auto grid size-16 place-items-center rounded-full bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300">
        <CheckIcon className="size-8" />
      </span>
      <h2 ref={headingRef} className={`${STEP_HEADING} mt-4 text-2xl font-extrabold`}>
        {t('payments.common.paymentSuccessful')}
      </h2>
      <p className="mt-2 break-words text-stone-700 dark:text-stone-300">
        {t('payments.success.planBefore')} <span className="font-semibold">{planName}</span>{' '}
        {t('payments.success.planAfter')}
      </p>
      <p className="mt-1 flex items-center justify-center gap-1.5 text-sm text-stone-600 dark:text-stone-400">
        <MailIcon className="size-4 shrink-0" /> {t('payments.success.receipt')}
      </p>
      {reference && (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          {t('payments.common.reference')} <span className="font-mono font-semibold">{reference}</span>
        </p>
      )}
      <LinkButton to="/dashboard" replace size="lg" className="mt-6">
        {t('payments.common.goDashboard')}
      </LinkButton>
      <p className="mt-3 text-xs text-stone-600 dark:text-stone-400">{t('payments.success.redirect')}</p>
    </Card>
  );
}
