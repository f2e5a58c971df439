import {
  displayUgandaPhone,
  formatUgx,
  MOBILE_MONEY,
  networkOfNumber,
  paymentNumberProblem,
  PHONE_EXAMPLE,
  type MobileNetwork,
} from '@filamu/shared';
import { useId, useState, type FormEvent, type Ref } from 'react';
import { useSession } from '../../../lib/session.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { ArrowLeftIcon } from '../../../components/ui/icons.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { NetworkBadge } from './NetworkBadge.tsx';
import { NumberNetworkHint } from './NumberNetworkHint.tsx';
import { usePaymentsT } from '../messages.ts';
import { problemText } from './phone-problem.ts';
import { STEP_HEADING, ussdHint, type ChargeError } from './steps.ts';

/** The registered number, spelled as people write it, when it can pay with `network` (else the field starts empty). */
function registeredNumberFor(phone: string | null | undefined, network: MobileNetwork): string {
  if (!phone) return '';
  const { canonical, network: its } = networkOfNumber(phone);
  return canonical && its === MOBILE_MONEY[network].numbers ? displayUgandaPhone(canonical) : '';
}

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
  onSwitch,
  initialPhone,
  unapprovedPhone,
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
  /** Pays with the other network instead, keeping the number typed. */
  onSwitch: (network: MobileNetwork) => void;
  /** The number the last prompt went to, when the payer comes back to the step. */
  initialPhone?: string;
  /** "Use another number": the number that did not approve. The field starts empty and says so. */
  unapprovedPhone?: string;
}) {
  const t = usePaymentsT();
  const info = MOBILE_MONEY[network];
  const registered = useSession().user?.phone;
  const [phone, setPhone] = useState(() =>
    unapprovedPhone ? '' : (initialPhone ?? registeredNumberFor(registered, network)),
  );
  const [invalid, setInvalid] = useState<string | null>(null);
  const [switched, setSwitched] = useState(false);
  const id = useId();
  const fieldId = `${id}-phone`;
  const fieldError = invalid ?? (error?.target === 'phone' ? error.message : null);
  const actionError = error?.target === 'action' ? error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The same check the server makes: a number of the other network never reaches a charge.
    const problem = paymentNumberProblem(phone, network);
    setInvalid(problem ? problemText(problem, phone, network) : null);
    if (problem) {
      document.getElementById(fieldId)?.focus();
      return;
    }
    onPay(networkOfNumber(phone).canonical!);
  };

  const switchTo = (other: MobileNetwork) => {
    onSwitch(other);
    setInvalid(null);
    setSwitched(true);
    // The switch button goes away with the mismatch: Pay, now with the right network, is where to be.
    document.getElementById(`${id}-pay`)?.focus();
  };

  return (
    <Card>
      <div className="flex items-center gap-3">
        <NetworkBadge network={network} />
        <h2 ref={headingRef} className={`${STEP_HEADING} min-w-0 break-words`}>
          {t('payments.phone.title', { network: info.name })}
        </h2>
      </div>
      <ul className="mt-3 space-y-1 text-sm text-stone-700 dark:text-stone-300">
        <li>{ussdHint(info)}</li>
        <li>{t('payments.phone.balance', { network: info.name })}</li>
      </ul>
      {unapprovedPhone && (
        <p
          data-testid="unapproved-number"
          className="mt-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
        >
          {t('payments.phone.unapproved', { phone: displayUgandaPhone(unapprovedPhone) })}
        </p>
      )}
      <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
        <div>
          <Input
            id={fieldId}
            label={t('payments.phone.label')}
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder={PHONE_EXAMPLE[info.numbers]}
            hint={t('payments.phone.hint', { network: info.name, example: PHONE_EXAMPLE[info.numbers] })}
            value={phone}
            maxLength={32}
            onChange={(e) => {
              setPhone(e.target.value);
              setInvalid(null);
              setSwitched(false);
              onEdit();
            }}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${fieldId}-hint${fieldError ? ` ${fieldId}-error` : ''}`}
            className={fieldError ? '[&_input]:border-red-600 dark:[&_input]:border-red-400' : undefined}
            required
          />
          {fieldError && <InlineError id={`${fieldId}-error`} message={fieldError} />}
          <NumberNetworkHint
            phone={phone}
            network={network}
            quiet={!!fieldError}
            switched={switched}
            onSwitch={switchTo}
          />
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button variant="outline" onClick={onBack} disabled={pending}>
            <ArrowLeftIcon className="size-4" /> {t('payments.phone.changeMethod')}
          </Button>
          <Button
            id={`${id}-pay`}
            type="submit"
            size="lg"
            className="flex-1"
            loading={pending}
            aria-describedby={actionError ? `${id}-pay-error` : undefined}
          >
            {t('payments.phone.pay', { amount: formatUgx(price) })}
          </Button>
        </div>
        {actionError && <InlineError id={`${id}-pay-error`} message={actionError} />}
      </form>
    </Card>
  );
}
