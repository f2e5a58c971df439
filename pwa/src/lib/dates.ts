import { formatDate as formatDateInEnglish, formatDateTime as formatDateTimeInEnglish } from '@filamu/shared';
import { commonT } from './common-messages.ts';

/**
 * The subscriber screens' dates: the shared formatters (Kampala's day and clock, decision 0239) with the month said in
 * the active language (`5 Apu 2026`, CLDR's Luganda short months). The month comes from the catalogue rather than
 * `Intl`, since a browser need not carry Luganda's date names. The consoles stay English and use the shared ones.
 */
const SHORT_MONTH = / ([A-Z][a-z]{2}) /;

const inActiveLanguage = (english: string) =>
  english.replace(SHORT_MONTH, (_whole, month: string) => ` ${commonT('common.date.month', { month })} `);

/** `5 Apr 2026`, or `5 Apu 2026` in Luganda. */
export const formatDate = (value: string | Date | null | undefined): string =>
  inActiveLanguage(formatDateInEnglish(value));

/** `5 Apr 2026, 2:00 PM`, or `5 Apu 2026, 2:00 PM` in Luganda. */
export const formatDateTime = (value: string | Date | null | undefined): string =>
  inActiveLanguage(formatDateTimeInEnglish(value));
