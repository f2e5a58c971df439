import {
  MOBILE_MONEY,
  mobileNetworkFor,
  networkOfNumber,
  networkWhileTyping,
  displayUgandaPhone,
  type MobileNetwork,
} from '@filamu/shared';
import { Button } from '../../../components/ui/Button.tsx';
import { usePaymentsT } from '../messages.ts';

/** `0752…`: the start of the typed number in local spelling, for "0752… is an Airtel number". */
function typedStart(phone: string): string {
  let digits = '';
  for (const ch of phone.slice(0, 32)) if (ch >= '0' && ch <= '9') digits += ch;
  const local = digits.startsWith('256') ? `0${digits.slice(3)}` : digits;
  return `${local.slice(0, 4)}…`;
}

/**
 * What the number being typed says about the network, as soon as its first digits tell: an offer to switch when it
 * belongs to the other network, a plain word when neither network serves it. A polite live region, so a screen
 * reader hears it once the digits decide, without interrupting the typing.
 */
export function NumberNetworkHint({
  phone,
  network,
  quiet,
  switched,
  onSwitch,
}: {
  phone: string;
  network: MobileNetwork;
  /** An error already says it under the field: keep only the switch button. */
  quiet: boolean;
  /** The method was just switched from here: say so (Pay has the focus). */
  switched: boolean;
  onSwitch: (network: MobileNetwork) => void;
}) {
  const t = usePaymentsT();
  const own = MOBILE_MONEY[network];
  const typed = networkWhileTyping(phone);
  const other = typed?.network && typed.network !== own.numbers ? mobileNetworkFor(typed.network) : null;
  const { canonical } = networkOfNumber(phone);
  const shown = canonical ? displayUgandaPhone(canonical) : typedStart(phone);
  const unserved = typed && !typed.network ? typed.holder : null;

  let words: string | null = null;
  if (other) words = t('payments.hint.other', { number: shown, short: other.short, network: other.name });
  else if (unserved)
    words = unserved.startsWith('A')
      ? t('payments.hint.unservedAn', { number: shown, holder: unserved })
      : t('payments.hint.unservedA', { number: shown, holder: unserved });
  else if (switched) words = t('payments.hint.now', { network: own.name });

  return (
    <div aria-live="polite" className="mt-2 space-y-2">
      {words && !quiet && <p className="text-sm text-stone-700 dark:text-stone-300">{words}</p>}
      {other && (
        <Button variant="secondary" size="sm" className="w-full sm:w-auto" onClick={() => onSwitch(other.id)}>
          {t('payments.hint.switch', { network: other.name })}
        </Button>
      )}
    </div>
  );
}
