import { messages as en, type ServerMessageId } from './compiled/server.en.ts';
import { messages as lg } from './compiled/server.lg.ts';
import { ERROR_PREFIX } from './error-prefix.ts';
import type { Locale } from './locale.ts';
import { i18nFor, translatorOf, type Translator } from './translate.ts';

/**
 * The server's own texts (SMS, push, error messages) in both languages: the API runs in Node, so both are loaded
 * at once. The PWA never imports this file (its screens have their own namespace, `web`).
 */
const translators: Record<Locale, Translator<ServerMessageId>> = {
  en: translatorOf(i18nFor('en', en)),
  lg: translatorOf(i18nFor('lg', lg)),
};

export type { ServerMessageId };

export function serverTranslator(locale: Locale): Translator<ServerMessageId> {
  return translators[locale];
}

/** Error message ids by their English text: the envelope finds a message's translation by what was thrown. */
const errorIds = new Map<string, ServerMessageId>();
for (const id of Object.keys(en) as ServerMessageId[]) {
  if (!id.startsWith(ERROR_PREFIX)) continue;
  const english = translators.en.t(id);
  errorIds.set(english, id);
}

/**
 * An error message in the person's language: the Luganda text of a message the catalogue knows by its English
 * words, or the message as thrown (a text with figures in it, or one not translated yet).
 */
export function localizeErrorMessage(locale: Locale, message: string): string {
  if (locale === 'en') return message;
  const id = errorIds.get(message);
  return id ? translators[locale].t(id) : message;
}
