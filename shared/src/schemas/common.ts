import { z } from 'zod';
import { LOCALES } from '../i18n/locale.ts';
import { canonicalUgandaPhone } from '../phone.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export const Id = z.uuid({ message: 'Must be a valid id.' });
export const IdParams = z.object({ id: Id });

export const Email = z
  .string({ message: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .pipe(z.email({ message: 'Please enter a valid email address.' }))
  .transform((value) => value.toLowerCase());

/** A language Filamu speaks (decision 0258): `en` or `lg`. */
export const Language = z.enum(LOCALES, { message: 'Choose a language Filamu speaks: en or lg.' });
export type Language = z.infer<typeof Language>;

export const FullName = z
  .string({ message: 'Full name is required.' })
  .trim()
  .min(1, 'Full name is required.')
  .max(120, 'Full name must be at most 120 characters.');

/** Accepts any spelling of a Uganda mobile number and yields the canonical 256XXXXXXXXX. */
export const UgandaPhone = z
  .string({ message: 'Phone number is required.' })
  .min(1, 'Phone number is required.')
  .max(32, 'Phone number is too long.')
  .transform((value, ctx) => {
    const canonical = canonicalUgandaPhone(value);
    if (!canonical) {
      ctx.addIssue({
        code: 'custom',
        message: 'Please enter a valid Uganda phone number, like 0772 123 456 or 0752 123 456',
      });
      return z.NEVER;
    }
    return canonical;
  });

/** Passwords are taken exactly as typed: no trimming, no composition rules. */
export const NewPassword = z
  .string({ message: 'Password is required.' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

/** A password being checked, not set: any non-empty string up to the maximum. */
export const GivenPassword = z
  .string({ message: 'Password is required.' })
  .min(1, 'Password is required.')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

export const DeviceId = z.string().trim().min(1).max(128);

export const IsoDateTime = z.string();

export const Message = z.object({ message: z.string() });
