import { PARENTAL_PIN_LENGTH } from '@filamu/shared';
import { Input, type InputProps } from '../../components/ui/Input.tsx';

/** A 4-digit PIN: number pad on phones, hidden as typed, never offered by the password manager. */
export function PinField({
  onValue,
  ...props
}: Omit<InputProps, 'onChange' | 'type'> & { onValue: (v: string) => void }) {
  return (
    <Input
      {...props}
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={PARENTAL_PIN_LENGTH}
      pattern="[0-9]*"
      onChange={(event) => onValue(event.target.value.replace(/\D/g, '').slice(0, PARENTAL_PIN_LENGTH))}
    />
  );
}

export const isFullPin = (pin: string) => pin.length === PARENTAL_PIN_LENGTH && /^\d+$/.test(pin);
