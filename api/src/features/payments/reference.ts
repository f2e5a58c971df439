import { isUniqueViolation } from '../../db/client.ts';
import { newPaymentReference } from '../../db/payment-reference.ts';

/** 32⁵ references: a clash is rare, and three in a row means something else is wrong. */
const INSERT_TRIES = 3;

export type ReferenceSource = () => string;

/**
 * Inserts with a fresh reference, taking another one when the unique index says it is taken. The reference is
 * written with the row and never changed: it is what receipts and support quote.
 */
export async function insertWithReference<T>(
  insert: (reference: string) => Promise<T>,
  source: ReferenceSource = newPaymentReference,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await insert(source());
    } catch (error) {
      if (attempt >= INSERT_TRIES || !isUniqueViolation(error, 'payments_reference_unique')) throw error;
    }
  }
}
