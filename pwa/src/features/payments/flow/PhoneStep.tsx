import {
  digitsOnly,
  formatUgx,
  MOBILE_MONEY,
  UGANDA_PHONE_PATTERN,
  ussdFallback,
  type MobileNetwork,
} from '@filamu/shared';
import { useId, useState, type FormEvent, type Ref } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { ArrowLeftIcon } from '../../../components/ui/icons.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { NetworkBadge } from './NetworkBadge.tsx';
import { STEP_HEADING, type ChargeError } from './steps.ts';

const REQUIRED = 'Please enter your phone number';
const INVALID = 'Please enter a valid Uganda phone number (e.g., 256712345678 or 0712345678)';

/** An error under the field or the Pay button: announced once (`role="alert"`), never repeated in a toast. */
function InlineError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="alert" className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

export function PhoneStep({
  network,
  price,
  pending,
  error,
  headingRef,
  onEdit,
  onBack,
  onPay,
}: {
  network: MobileNetwork;
  price: string;
  pending: boolean;
  /** The server's refusal of the last charge. */
  error: ChargeError | null;
  headingRef: Ref<HTMLHeadingElement>;
  onEdit: () => void;
  onBack: () => void;
  onPay: (phone: string) => void;
}) {
  const info = MOBILE_MONEY[network];
  const [phone, setPhone] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const fieldId = `${id}-phone`;
  const fieldError = invalid ?? (error?.target === 'phone' ? error.message : null);
  const actionError = error?.target === 'action' ? error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const digits = digitsOnly(phone);
    const problem = !phone.trim() ? REQUIRED : !UGANDA_PHONE_PATTERN.test(digits) ? INVALID : null;
    setInvalid(problem);
    if (problem) {
      document.getElementById(fieldId)?.focus();
      return;
    }
    onPay(digits);
  };

  return (
    <Card>
      <div className="flex items-center gap-3">
        <NetworkBadge network={network} />
        <h2 ref={headingRef} className={`${STEP_HEADING} min-w-0 break-words`}>
          Pay with {info.name}
        </h2>
      </div>
      <ul className="mt-3 space-y-1 text-sm text-stone-700 dark:text-stone-300">
        <li>{ussdFallback(info)}</li>
        <li>Ensure you have sufficient balance on your {info.name} account.</li>
      </ul>
      <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
        <div>
          <Input
            id={fieldId}
            label="Phone Number"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="0772123456"
            hint={`The ${info.name} number that will pay, e.g. 0772123456 or 256772123456.`}
            value={phone}
            onChange={(e) => {
              setPhone(e.target.value);
              setInvalid(null);
              onEdit();
            }}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${fieldId}-hint${fieldError ? ` ${fieldId}-error` : ''}`}
            className={fieldError ? '[&_input]:border-red-600 dark:[&_input]:border-red-400' : undefined}
            required
          />
          {fieldError && <InlineError id={`${fieldId}-error`} message={fieldError} />}
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button variant="outline" onClick={onBack} disabled={pending}>
            <ArrowLeftIcon className="size-4" /> Change method
          </Button>
          <Button
            type="submit"
            size="lg"
            className="flex-1"
            loading={pending}
            aria-describedby={actionError ? `${id}-pay-error` : undefined}
          >
            Pay {formatUgx(price)} Now
          </Button>
        </div>
        {actionError && <InlineError id={`${id}-pay-error`} message={actionError} />}
      </form>
    </Card>
  );
}
