import { DataPriceSetting } from '@filamu/shared';
import { typedNumber } from './form.ts';

/**
 * A typed price of 1 GB of data ("15,000" or "15000") checked as the server checks it: the operator's price in the
 * console and a person's own bundle price on the phone are read the same way.
 */
export function readDataPrice(typed: string): { price: number; error?: undefined } | { error: string } {
  const parsed = DataPriceSetting.safeParse({ dataPricePerGbUgx: typedNumber(typed) });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Enter the price of 1 GB of data in UGX.' };
  return { price: parsed.data.dataPricePerGbUgx };
}
