import { i18nFor, isLocale, localeFromLanguages, translatorOf, type Locale, type MessageValues } from '@filamu/shared';
import { messages as english, type WebMessageId } from '@filamu/shared/i18n/web.en';
import { useEffect } from 'react';
import { create } from 'zustand';
import { readLocal, writeLocal } from './local-storage.ts';
import { STORAGE_KEYS } from './storage-names.ts';

/**
 * The screens' language (decisions 0257, 0258). English is in the bundle; Luganda is fetched (a chunk of its own,
 * precached like every other) only once `lg` is active. One Lingui instance: `t` reads the language active now, and
 * a component that calls `useT()` renders again when it changes.
 */
const i18n = i18nFor('en', english);
const translator = translatorOf<WebMessageId>(i18n);
let lugandaLoaded = false;

export type { WebMessageId };

interface LocaleState {
  locale: Locale;
}

export const useLocaleStore = create<LocaleState>()(() => ({ locale: 'en' }));

/** A message in the language active now. In a component, take it from `useT()` so the screen follows a change. */
export function t(id: WebMessageId, values?: MessageValues): string {
  return translator.t(id, values);
}

/** `t`, and a render whenever the language changes. */
export function useT(): typeof t {
  useLocaleStore((s) => s.locale);
  return t;
}

/**
 * The active language, and a render whenever it changes. Read from Lingui, not the store's value: while a
 * prerendered page hydrates, React reads a store's initial state, which is English whatever the page's language.
 */
export function useLocale(): Locale {
  useLocaleStore((s) => s.locale);
  return i18n.locale as Locale;
}

/** The language this phone asks for: the one chosen on it, else the browser's (Luganda for `lg`, else English). */
export function wantedLocale(): Locale {
  const saved = readLocal(STORAGE_KEYS.language);
  if (isLocale(saved)) return saved;
  return localeFromLanguages(typeof navigator === 'undefined' ? [] : navigator.languages);
}

/** Whether a language was chosen on this phone (not only taken from the browser). */
export const localeChosenHere = () => isLocale(readLocal(STORAGE_KEYS.language));

/** Makes `locale` the active language: its messages fetched if needed, `<html lang>` set, every `useT()` renders. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (locale === 'lg' && !lugandaLoaded) {
    const { messages } = await import('@filamu/shared/i18n/web.lg');
    i18n.load('lg', messages);
    lugandaLoaded = true;
  }
  i18n.activate(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  useLocaleStore.setState({ locale });
}

/**
 * Once the app has rendered (a prerendered page hydrated in its own language), the language this phone asks for:
 * switching before the hydration is done would make the page's markup and the render disagree.
 */
export function useWantedLocale(): void {
  useEffect(() => {
    const wanted = wantedLocale();
    if (wanted !== i18n.locale) void activateLocale(wanted);
  }, []);
}

/** The person picked a language on this phone: kept here, shown at once. */
export async function chooseLocale(locale: Locale): Promise<void> {
  writeLocal(STORAGE_KEYS.language, locale);
  await activateLocale(locale);
}

/** Another tab chose a language. */
export function followOtherTabs(): void {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.language && isLocale(event.newValue)) void activateLocale(event.newValue);
  });
}
