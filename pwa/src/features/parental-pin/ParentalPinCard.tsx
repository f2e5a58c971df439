import {
  contracts,
  PARENTAL_HIDES,
  PARENTAL_HIDES_LABELS,
  PARENTAL_PIN_LOCK_MINUTES,
  PARENTAL_PIN_MAX_TRIES,
  type ParentalHides,
  type ParentalPinStatus,
} from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { PasswordInput } from '../../components/ui/Input.tsx';
import { api, errorMessage, isApiError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { applyPinStatus } from './pin-state.ts';
import { isFullPin, PinField } from './PinField.tsx';

type Mode = 'idle' | 'set' | 'forgot' | 'off';

const NOT_SET: ParentalPinStatus = {
  pinSet: false,
  hides: null,
  offlineVerifier: null,
  unlockedUntil: null,
  lockedUntil: null,
};

function passwordError(error: unknown): string | null {
  if (!isApiError(error)) return null;
  return error.issues.find((issue) => issue.path === 'currentPassword')?.message ?? null;
}

/** Set, change, reset (forgotten) or turn off the PIN: all of them with the account password. */
function SetPinForm({ status, forgot, onDone }: { status: ParentalPinStatus; forgot: boolean; onDone: () => void }) {
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [hides, setHides] = useState<ParentalHides>(status.hides ?? '18');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ pin?: string; again?: string; password?: string; form?: string }>({});
  const legendId = useId();

  const save = useMutation({
    mutationFn: () => api(contracts.parentalPin.setParentalPin, { body: { pin, hides, currentPassword: password } }),
    onSuccess: (next) => {
      applyPinStatus(next);
      toast.success(
        status.pinSet ? 'Parental PIN changed' : 'Parental PIN set',
        `${PARENTAL_HIDES_LABELS[hides]} titles.`,
      );
      onDone();
    },
    onError: (error) => {
      const wrongPassword = passwordError(error);
      setErrors(wrongPassword ? { password: wrongPassword } : { form: errorMessage(error, 'Please try again.') });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(!isFullPin(pin) && { pin: 'Enter 4 digits.' }),
      ...(isFullPin(pin) && again !== pin && { again: 'The two PINs are not the same.' }),
      ...(!password && { password: 'Enter your password.' }),
    };
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };

  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4" data-testid="parental-pin-form">
      {forgot && (
        <p className="text-sm text-stone-700 dark:text-stone-300">
          Choose a new PIN. Your password proves it is you; the old PIN stops working.
        </p>
      )}
      <PinField
        label={status.pinSet ? 'New PIN' : 'PIN'}
        hint="4 digits"
        value={pin}
        onValue={setPin}
        error={errors.pin}
      />
      <PinField label="PIN again" value={again} onValue={setAgain} error={errors.again} />
      <fieldset aria-labelledby={legendId}>
        <p id={legendId} className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">
          What the PIN hides
        </p>
        <div className="space-y-2">
          {PARENTAL_HIDES.map((option) => (
            <label key={option} className="flex min-h-11 items-center gap-3 text-sm">
              <input
                type="radio"
                name="hides"
                value={option}
                checked={hides === option}
                onChange={() => setHides(option)}
                className="size-5 accent-brand-700 dark:accent-brand-400"
              />
              {PARENTAL_HIDES_LABELS[option]}
            </label>
          ))}
        </div>
      </fieldset>
      <PasswordInput
        label="Your password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
      />
      {errors.form && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {errors.form}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={save.isPending}>
          {status.pinSet ? 'Save new PIN' : 'Set PIN'}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function TurnOffForm({ onDone }: { onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const off = useMutation({
    mutationFn: () => api(contracts.parentalPin.removeParentalPin, { body: { currentPassword: password } }),
    onSuccess: (next) => {
      applyPinStatus(next);
      toast.success('Parental PIN turned off', 'Every title shows again.');
      onDone();
    },
    onError: (e) => setError(passwordError(e) ?? errorMessage(e, 'Please try again.')),
  });
  return (
    <form
      className="mt-4 space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!password) setError('Enter your password.');
        else off.mutate();
      }}
    >
      <PasswordInput
        label="Your password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" loading={off.isPending}>
          Turn off PIN
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Profile → Security → Parental PIN (decision 0170). */
export function ParentalPinCard({ status = NOT_SET }: { status?: ParentalPinStatus }) {
  const [mode, setMode] = useState<Mode>('idle');
  const done = () => setMode('idle');
  return (
    <Card data-testid="parental-pin-card">
      <CardTitle>Parental PIN</CardTitle>
      <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
        {status.pinSet && status.hides
          ? `On: ${PARENTAL_HIDES_LABELS[status.hides].toLowerCase()} titles in the library, and asks for the PIN to play them — offline too.`
          : 'A 4-digit PIN that hides 18+ (or 13+ and 18+) titles and asks for the PIN to play them.'}
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {PARENTAL_PIN_MAX_TRIES} wrong tries lock it for {PARENTAL_PIN_LOCK_MINUTES} minutes. An .mp4 copy made with
        Keep a copy plays without the PIN.
      </p>
      {mode === 'idle' && (
        <div className="mt-4 flex flex-wrap gap-3">
          <Button onClick={() => setMode('set')}>{status.pinSet ? 'Change PIN' : 'Set a PIN'}</Button>
          {status.pinSet && (
            <>
              <Button variant="outline" onClick={() => setMode('off')}>
                Turn off
              </Button>
              <Button variant="ghost" onClick={() => setMode('forgot')}>
                Forgot PIN? Set a new one with your password
              </Button>
            </>
          )}
        </div>
      )}
      {(mode === 'set' || mode === 'forgot') && <SetPinForm status={status} forgot={mode === 'forgot'} onDone={done} />}
      {mode === 'off' && <TurnOffForm onDone={done} />}
    </Card>
  );
}
