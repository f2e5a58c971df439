import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { usePinT } from './messages.ts';
import { isFullPin, PinField } from './PinField.tsx';

/**
 * Asks for the PIN. `check` answers null when it was right, else the words to show (wrong, tries left, locked);
 * the field is emptied after a wrong one so the next try starts clean.
 */
export function PinPrompt({
  check,
  submitLabel,
  label,
  autoFocus,
}: {
  check: (pin: string) => Promise<string | null>;
  submitLabel: string;
  label?: string;
  autoFocus?: boolean;
}) {
  const t = usePinT();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isFullPin(pin)) return setError(t('parental-pin.prompt.required'));
    setBusy(true);
    try {
      const refused = await check(pin);
      setError(refused);
      if (refused) setPin('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-3 flex flex-wrap items-start gap-3">
      <PinField
        label={label ?? t('parental-pin.title')}
        value={pin}
        onValue={setPin}
        error={error}
        autoFocus={autoFocus}
        className="w-full max-w-48"
      />
      <Button type="submit" loading={busy} className="sm:mt-7">
        {submitLabel}
      </Button>
    </form>
  );
}
