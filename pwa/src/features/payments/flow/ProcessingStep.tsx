import type { Ref } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { SmartphoneIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { InstructionList } from './InstructionList.tsx';
import { STEP_HEADING } from './steps.ts';

export function ProcessingStep({
  instructions,
  exhausted,
  checking,
  headingRef,
  onCheckAgain,
}: {
  instructions: string;
  exhausted: boolean;
  checking: boolean;
  headingRef: Ref<HTMLHeadingElement>;
  onCheckAgain: () => void;
}) {
  return (
    <Card>
      <div className="flex justify-center text-brand-700 dark:text-brand-400">
        {exhausted ? <SmartphoneIcon className="size-12" /> : <Spinner className="size-12" label="" />}
      </div>
      <h2 ref={headingRef} className={`${STEP_HEADING} mt-4 text-center text-xl font-bold`}>
        Waiting for your payment
      </h2>
      <p className="mt-2 text-center text-stone-700 dark:text-stone-300">
        Please complete the payment on your phone. We&apos;ll activate your subscription automatically.
      </p>
      <p className="mt-1 text-center text-sm text-stone-600 dark:text-stone-400">
        This usually takes 10-30 seconds. Please don&apos;t close this page.
      </p>
      {instructions && (
        <div className="mt-5 rounded-xl bg-stone-100 p-4 dark:bg-stone-800">
          <h3 id="charge-steps" className="mb-2 text-sm font-semibold">
            On your phone
          </h3>
          <InstructionList text={instructions} labelledBy="charge-steps" />
        </div>
      )}
      <div role="status" aria-live="polite" className="mt-5 text-center">
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
