import { z } from 'zod';
import { GivenPassword, IsoDateTime } from './common.ts';
import type { MovieRating } from './ratings.ts';

/** Parental PIN (decision 0170): 4 digits, wrong tries locked out, offline-checkable on the device. */
export const PARENTAL_PIN_LENGTH = 4;
export const PARENTAL_PIN_MAX_TRIES = 5;
export const PARENTAL_PIN_LOCK_MINUTES = 15;
/** How long a right PIN shows hidden titles and allows their download, on this session. */
export const PARENTAL_UNLOCK_MINUTES = 30;
/** PBKDF2-SHA256 rounds of the verifier: slow enough to make each guess cost, quick enough on a cheap phone. */
export const PARENTAL_PIN_ITERATIONS = 100_000;

const PIN_INVALID = 'The PIN is exactly 4 digits.';
export const ParentalPin = z
  .string({ message: PIN_INVALID })
  .length(PARENTAL_PIN_LENGTH, PIN_INVALID)
  .refine((value) => /^\d{4}$/.test(value), PIN_INVALID);

/** '18': hide 18+ titles; '13': hide 13+ and 18+. */
export const PARENTAL_HIDES = ['18', '13'] as const;
export const ParentalHides = z.enum(PARENTAL_HIDES, { message: 'Choose "Hide 18+" or "Hide 13+ and 18+".' });
export type ParentalHides = z.infer<typeof ParentalHides>;

export const PARENTAL_HIDES_LABELS: Record<ParentalHides, string> = {
  '18': 'Hide 18+',
  '13': 'Hide 13+ and 18+',
};

/** The ratings a PIN set to `hides` keeps out of the library. */
export function ratingsHiddenBy(hides: ParentalHides): readonly MovieRating[] {
  return hides === '13' ? ['13', '18'] : ['18'];
}

export function isRatingHiddenBy(hides: ParentalHides | null | undefined, rating: MovieRating): boolean {
  return hides ? ratingsHiddenBy(hides).includes(rating) : false;
}

/** Set, change or reset (forgotten PIN) the PIN: always with the account password. */
export const SetParentalPinRequest = z.object({
  pin: ParentalPin,
  hides: ParentalHides,
  currentPassword: GivenPassword,
});
export type SetParentalPinRequest = z.input<typeof SetParentalPinRequest>;

export const RemoveParentalPinRequest = z.object({ currentPassword: GivenPassword });
export type RemoveParentalPinRequest = z.input<typeof RemoveParentalPinRequest>;

export const VerifyParentalPinRequest = z.object({ pin: ParentalPin });
export type VerifyParentalPinRequest = z.input<typeof VerifyParentalPinRequest>;

/**
 * What the device keeps to check the PIN without the network: PBKDF2-SHA256 of the PIN with this salt. A 4-digit
 * PIN can be found from it by trying all 10,000: it keeps a child out, not an attacker (decision 0170).
 */
export const ParentalPinVerifier = z.object({
  /** base64url */
  salt: z.string().max(64),
  /** base64url of 32 bytes */
  hash: z.string().max(64),
  iterations: z.number().int().positive(),
});
export type ParentalPinVerifier = z.infer<typeof ParentalPinVerifier>;

export const ParentalPinStatus = z.object({
  pinSet: z.boolean(),
  hides: ParentalHides.nullable(),
  offlineVerifier: ParentalPinVerifier.nullable(),
  /** Until when this session shows hidden titles (a right PIN was entered); null when it does not. */
  unlockedUntil: IsoDateTime.nullable(),
  /** Until when wrong tries have locked the PIN on the server; null when they have not. */
  lockedUntil: IsoDateTime.nullable(),
});
export type ParentalPinStatus = z.infer<typeof ParentalPinStatus>;
