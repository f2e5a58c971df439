import { setupI18n, type I18n, type Messages } from '@lingui/core';
import type { Locale } from './locale.ts';

/**
 * The one translator and the one date/number formatter (decision 0257): Lingui's core reading catalogues compiled by
 * `pnpm i18n` (scripts/i18n.ts), so no ICU parser ships. Plurals follow the language's CLDR rules (Intl.PluralRules),
 * dates and numbers its Intl formats, on Kampala's clock.
 */

/** A namespace's compiled messages, as `pnpm i18n` writes them. */
export type CompiledMessages = Messages;

/** What a message's `{placeholders}` take. */
export type MessageValues = Record<string, string | number | Date>;

export const KAMPALA_TIME_ZONE = 'Africa/Kampala';

/** A language's messages ready to use: translate, and format dates and numbers the way that language writes them. */
export interface Translator<Id extends string> {
  readonly locale: Locale;
  t(id: Id, values?: MessageValues): string;
  date(value: Date, options?: Intl.DateTimeFormatOptions): string;
  number(value: number, options?: Intl.NumberFormatOptions): string;
}

export function translatorOf<Id extends string>(i18n: I18n): Translator<Id> {
  return {
    get locale() {
      return i18n.locale as Locale;
    },
    t: (id, values) => i18n._(id, values),
    date: (value, options) => i18n.date(value, { timeZone: KAMPALA_TIME_ZONE, ...options }),
    number: (value, options) => i18n.number(value, options),
  };
}

/** A Lingui instance for one language and its compiled messages. */
export function i18nFor(locale: Locale, messages: Messages): I18n {
  return setupI18n({ locale, messages: { [locale]: messages } });
}
