import {
  i18nFor,
  isLocale,
  type CompiledMessages as Messages,
  localeFromLanguages,
  translatorOf,
  type Locale,
  type MessageValues,
} from '@filamu/shared';
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
/** Every English message loaded so far, never switched: what a screen shows while its Luganda is on its way. */
const englishOnly = i18nFor('en', english);

/** A screen's catalogue beside `web`: its Luganda and whether it is here yet. */
interface Namespace {
  loadLuganda: () => Promise<{ messages: Messages }>;
  lugandaLoaded: boolean;
  loading?: Promise<void>;
}
const webNamespace: Namespace = {
  loadLuganda: () => import('@filamu/shared/i18n/web.lg'),
  lugandaLoaded: false,
};
const namespaces: Namespace[] = [webNamespace];

export type { WebMessageId };

interface LocaleState {
  locale: Locale;
  /** Bumped when a namespace's Luganda arrives after its screen rendered in English. */
  version: number;
}

export const useLocaleStore = create<LocaleState>()(() => ({ locale: 'en', version: 0 }));

function loadLuganda(namespace: Namespace): Promise<void> {
  namespace.loading ??= namespace.loadLuganda().then(({ messages }) => {
    i18n.load('lg', messages);
    namespace.lugandaLoaded = true;
  });
  return namespace.loading;
}

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
 * A screen area's own catalogue (`shared/src/i18n/catalogue/<locale>/<namespace>.json`), so its messages travel with
 * its route's chunk and never weigh on the landing. Its English is there at once; its Luganda is fetched the first
 * time it is wanted, and until it arrives the area shows English rather than message ids.
 *
 *   export const { t: catalogT, useT: useCatalogT } = catalogueOf<CatalogMessageId>(messages, () =>
 *     import('@filamu/shared/i18n/catalog.lg'));
 */
export function catalogueOf<Id extends string>(
  englishMessages: Messages,
  lugandaMessages: () => Promise<{ messages: Messages }>,
): { t: (id: Id, values?: MessageValues) => string; useT: () => (id: Id, values?: MessageValues) => string } {
  i18n.load('en', englishMessages);
  englishOnly.load('en', englishMessages);
  const namespace: Namespace = { loadLuganda: lugandaMessages, lugandaLoaded: false };
  namespaces.push(namespace);
  const areaT = (id: Id, values?: MessageValues): string => {
    if (i18n.locale === 'lg' && !namespace.lugandaLoaded) {
      void loadLuganda(namespace).then(() => useLocaleStore.setState((s) => ({ version: s.version + 1 })));
      return englishOnly._(id, values);
    }
    return i18n._(id, values);
  };
  const useAreaT = () => {
    useLocaleStore((s) => s.locale);
    useLocaleStore((s) => s.version);
    return areaT;
  };
  return { t: areaT, useT: useAreaT };
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
  // Every namespace registered so far (the screens on the way), so the switch shows them whole.
  if (locale === 'lg') await Promise.all(namespaces.map(loadLuganda));
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
    // A link to the Luganda landing is a choice of Luganda, kept like one: many Luganda speakers' phones are set to
    // English, and the link a friend shares is how they get here (decision 0258).
    const onLugandaLanding = window.location.pathname === '/lg' || window.location.pathname === '/lg/';
    if (!localeChosenHere() && onLugandaLanding && i18n.locale === 'lg') {
      writeLocal(STORAGE_KEYS.language, 'lg');
      return;
    }
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
