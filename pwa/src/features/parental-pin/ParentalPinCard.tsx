import {
  contracts,
  PARENTAL_HIDES,
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
import { HIDES_LABELS, pinT, usePinT } from './messages.ts';
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
  const t = usePinT();
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
        pinT(status.pinSet ? 'parental-pin.toast.changed' : 'parental-pin.toast.set'),
        pinT(hides === '13' ? 'parental-pin.toast.hides.13' : 'parental-pin.toast.hides.18'),
      );
      onDone();
    },
    onError: (error) => {
      const wrongPassword = passwordError(error);
      setErrors(
        wrongPassword ? { password: wrongPassword } : { form: errorMessage(error, pinT('parental-pin.tryAgain')) },
      );
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(!isFullPin(pin) && { pin: t('parental-pin.form.pin.required') }),
      ...(isFullPin(pin) && again !== pin && { again: t('parental-pin.form.again.mismatch') }),
      ...(!password && { password: t('parental-pin.form.password.required') }),
    };
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };

  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4" data-testid="parental-pin-form">
      {forgot && <p className="text-sm text-stone-700 dark:text-stone-300">{t('parental-pin.form.forgot')}</p>}
      <PinField
        label={t(status.pinSet ? 'parental-pin.form.newPin' : 'parental-pin.form.pin')}
        hint={t('parental-pin.form.pin.hint')}
        value={pin}
        onValue={setPin}
        error={errors.pin}
      />
      <PinField label={t('parental-pin.form.again')} value={again} onValue={setAgain} error={errors.again} />
      <fieldset aria-labelledby={legendId}>
        <p id={legendId} className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">
          {t('parental-pin.form.hides')}
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
              {t(HIDES_LABELS[option])}
            </label>
          ))}
        </div>
      </fieldset>
      <PasswordInput
        label={t('parental-pin.form.password')}
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
          {t(status.pinSet ? 'parental-pin.form.saveNew' : 'parental-pin.form.set')}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          {t('parental-pin.cancel')}
        </Button>
      </div>
    </form>
  );
}

function TurnOffForm({ onDone }: { onDone: () => void }) {
  const t = usePinT();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const off = useMutation({
    mutationFn: () => api(contracts.parentalPin.removeParentalPin, { body: { currentPassword: password } }),
    onSuccess: (next) => {
      applyPinStatus(next);
      toast.success(pinT('parental-pin.toast.off'), pinT('parental-pin.toast.off.text'));
      onDone();
    },
    onError: (e) => setError(passwordError(e) ?? errorMessage(e, pinT('parental-pin.tryAgain'))),
  });
  return (
    <form
      className="mt-4 space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!password) setError(t('parental-pin.form.password.required'));
        else off.mutate();
      }}
    >
      <PasswordInput
        label={t('parental-pin.form.password')}
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" loading={off.isPending}>
          {t('parental-pin.off.submit')}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          {t('parental-pin.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** Profile → Security → Parental PIN (decision 0170). */
export function ParentalPinCard({ status = NOT_SET }: { status?: ParentalPinStatus }) {
  const t = usePinT();
  const [mode, setMode] = useState<Mode>('idle');
  const done = () => setMode('idle');
  return (
    <Card data-testid="parental-pin-card">
      <CardTitle>{t('parental-pin.title')}</CardTitle>
      <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
        {status.pinSet && status.hides
          ? t(status.hides === '13' ? 'parental-pin.card.on.13' : 'parental-pin.card.on.18')
          : t('parental-pin.card.off')}
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {t('parental-pin.card.lock', { tries: PARENTAL_PIN_MAX_TRIES, minutes: PARENTAL_PIN_LOCK_MINUTES })}
      </p>
      {mode === 'idle' && (
        <div className="mt-4 flex flex-wrap gap-3">
          <Button onClick={() => setMode('set')}>
            {t(status.pinSet ? 'parental-pin.card.change' : 'parental-pin.card.setA')}
          </Button>
          {status.pinSet && (
            <>
              <Button variant="outline" onClick={() => setMode('off')}>
                {t('parental-pin.card.turnOff')}
              </Button>
              <Button variant="ghost" onClick={() => setMode('forgot')}>
                {t('parental-pin.card.forgot')}
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
