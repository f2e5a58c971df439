import { formatDate, serverTranslator, type Locale } from '@filamu/shared';
import { receiptFacts, type Receipt } from '../sms/texts.ts';

/**
 * Everything Filamu says by push, in the person's language (decision 0258), from the `server` catalogue: the title
 * and body a phone shows in its notification shade. A push is short: the service worker shows what it is given.
 */
export interface PushText {
  title: string;
  body: string;
}

/** The receipt's push: the same facts, worded once, as the SMS and the mail (receiptFacts). */
export function receiptPush(receipt: Receipt, locale: Locale = 'en'): PushText {
  const { t } = serverTranslator(locale);
  return { title: t('push.receipt.title'), body: t('push.receipt.body', receiptFacts(receipt, locale)) };
}

/** Three days before the plan ends, and on its last day (decision 0154). */
export function reminderPush(
  p: { kind: 'plan_ends_in_3_days' | 'plan_ends_today'; planName: string; accessUntil: Date },
  locale: Locale = 'en',
): PushText {
  const tr = serverTranslator(locale);
  // English keeps its hand-written date (0239); Luganda's comes from the one formatter (CLDR `lg`).
  const date = locale === 'en' ? formatDate(p.accessUntil) : tr.date(p.accessUntil, { dateStyle: 'medium' });
  return {
    title: tr.t(p.kind === 'plan_ends_today' ? 'push.reminder.today' : 'push.reminder.soon'),
    body: tr.t('push.reminder.body', { plan: p.planName, date }),
  };
}

/** The day's "new Kinayuganda movies" push (decision 0154). */
export function newMoviesPush(count: number, locale: Locale = 'en'): PushText {
  const { t } = serverTranslator(locale);
  return { title: t('push.newMovies.title', { count }), body: t('push.newMovies.body', { count }) };
}

/** The night window has opened and a film waits in tonight's list (decision 0255). */
export function nightWindowPush(locale: Locale = 'en'): PushText {
  const { t } = serverTranslator(locale);
  return { title: t('push.nightWindow.title'), body: t('push.nightWindow.body') };
}
