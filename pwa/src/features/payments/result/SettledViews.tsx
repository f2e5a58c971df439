import { formatUgx, SUPPORT, type VerifyPaymentResponse } from '@filamu/shared';
import { formatDate } from '../../../lib/dates.ts';
import { buttonClasses, LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { ChatIcon, CheckIcon, DownloadIcon, XIcon } from '../../../components/ui/icons.tsx';
import { usePaymentsT } from '../messages.ts';
import { SupportContacts } from '../SupportContacts.tsx';
import { OutcomeMark, ResultRow, ResultRows } from './ResultRows.tsx';

/** A payment the server says completed (product §2 Checkout success). */
export function SuccessView({ result, name }: { result: VerifyPaymentResponse; name: string }) {
  const t = usePaymentsT();
  return (
    <Card className="text-center">
      <OutcomeMark tone="success">
        <CheckIcon className="size-8" />
      </OutcomeMark>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{t('payments.common.paymentSuccessful')}</h1>
      <p className="mt-2 break-words text-stone-700 dark:text-stone-300">{t('payments.result.welcome', { name })}</p>
      <ResultRows>
        <ResultRow label={t('payments.common.plan')}>{result.plan_name}</ResultRow>
        <ResultRow label={t('payments.common.amount')}>{formatUgx(result.amount)}</ResultRow>
        {result.subscription_end_date && (
          <ResultRow label={t('payments.result.accessUntil')}>{formatDate(result.subscription_end_date)}</ResultRow>
        )}
        <ResultRow label={t('payments.result.transactionId')}>
          <span className="font-mono break-all">{result.transaction_id}</span>
        </ResultRow>
      </ResultRows>
      <LinkButton to="/dashboard" size="lg" className="mt-6 w-full">
        <DownloadIcon className="size-5" /> {t('payments.result.startDownloading')}
      </LinkButton>
      <a
        href={SUPPORT.whatsappHref}
        target="_blank"
        rel="noreferrer"
        className="mt-4 inline-flex items-center gap-1.5 text-sm font-semibold text-brand-800 underline dark:text-brand-300"
      >
        <ChatIcon className="size-4" /> {t('payments.result.needHelp')}
      </a>
    </Card>
  );
}

/** A payment the server says failed or expired (product §2 Checkout failure), in the server's words. */
export function FailedView({ result }: { result: VerifyPaymentResponse }) {
  const t = usePaymentsT();
  return (
    <Card>
      <div className="text-center">
        <OutcomeMark tone="danger">
          <XIcon className="size-8" />
        </OutcomeMark>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{t('payments.result.titleFailed')}</h1>
        <p className="mt-2 text-stone-700 dark:text-stone-300">{t('payments.result.failedText')}</p>
      </div>
      <ResultRows>
        <ResultRow label={t('payments.common.plan')}>{result.plan_name}</ResultRow>
        <ResultRow label={t('payments.common.reference')}>
          <span className="font-mono break-all">{result.transaction_id}</span>
        </ResultRow>
        <ResultRow label={t('payments.result.error')}>
          <span className="text-red-700 dark:text-red-400">{result.resultExplanation}</span>
        </ResultRow>
      </ResultRows>
      <h2 className="mt-6 font-semibold">{t('payments.result.commonReasons')}</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700 dark:text-stone-300">
        <li>{t('payments.result.reasonFunds')}</li>
        <li>{t('payments.result.reasonNetwork')}</li>
        <li>{t('payments.result.reasonService')}</li>
      </ul>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <LinkButton to="/subscription" size="lg" className="flex-1">
          {t('payments.result.tryAgainButton')}
        </LinkButton>
        <a
          href={SUPPORT.whatsappHref}
          target="_blank"
          rel="noreferrer"
          className={buttonClasses('outline', 'lg', 'flex-1')}
        >
          <ChatIcon className="size-5" /> {t('payments.result.contactSupport')}
        </a>
      </div>
      <div className="mt-6 border-t border-stone-200 pt-4 dark:border-stone-800">
        <SupportContacts />
      </div>
    </Card>
  );
}
