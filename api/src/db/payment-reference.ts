import { randomInt } from 'node:crypto';
import { PAYMENT_REFERENCE_ALPHABET, PAYMENT_REFERENCE_LENGTH, PAYMENT_REFERENCE_PREFIX } from '@filamu/shared';

/** FLM- and five characters nobody misreads over the phone (decision 0180). */
export function newPaymentReference(): string {
  let code = '';
  for (let i = 0; i < PAYMENT_REFERENCE_LENGTH; i += 1) {
    code += PAYMENT_REFERENCE_ALPHABET[randomInt(PAYMENT_REFERENCE_ALPHABET.length)];
  }
  return PAYMENT_REFERENCE_PREFIX + code;
}
