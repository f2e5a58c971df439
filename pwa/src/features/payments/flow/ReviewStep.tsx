import type { Ref } from 'react';
import { LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { SupportContacts } from '../SupportContacts.tsx';
import { usePaymentsT } from '../messages.ts';
import { STEP_HEADING } from './steps.ts';

export function ReviewStep({ reference, headingRef }: { reference: string; headingRef: Ref<HTMLHeadingElement> }) {
  const t = usePaymentsT();
  return (
    <Card>
      <h2 ref={headingRef} className={`${STEP_HEADING} text-xl font-bold text-amber-800 dark:text-amber-300`}>
        {t('payments.common.paymentUnderReview')}
      </h2>
      <p className="mt-2 text-stone-700 dark:text-stone-300">{t('payments.common.reviewText')}</p>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
        {t('payments.review.referenceColon')} <span className="font-mono font-semibold">{reference}</span>
      </p>
      <div className="mt-4">
        <SupportContacts />
      </div>
      <LinkButton to="/dashboard" variant="outline" className="mt-6">
        {t('payments.common.goDashboard')}
      </LinkButton>
    </Card>
  );
}
