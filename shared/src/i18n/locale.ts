/**
 * The languages Filamu speaks (decision 0258): English, the default, and Luganda (`lg`). One list, read by the
 * phone (navigator.languages), the server (Accept-Language) and the account's `language` column.
 */
export const LOCALES = ['en', 'lg'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, as the switch shows it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', lg: 'Luganda' };

export const isLocale = (value: unknown): value is Locale => value === 'en' || value === 'lg';

/** At most this many language tags are read from a header: it is request data, bounded like any other. */
const MAX_TAGS = 20;
const MAX_HEADER = 1000;

/**
 * The language to use for a person's browser: Luganda when their most preferred language Filamu speaks is `lg`
 * (`lg`, `lg-UG`), English otherwise (decision 0258). Takes navigator.languages or an Accept-Language header;
 * q-values are honoured, the order breaks ties. Plain string work: no regex runs on request data.
 */
export function localeFromLanguages(languages: readonly string[] | string | null | undefined): Locale {
  const tags =
    typeof languages === 'string' ? acceptLanguageTags(languages) : [...(languages ?? [])].slice(0, MAX_TAGS);
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary === 'lg') return 'lg';
    if (primary === 'en') return 'en';
  }
  return DEFAULT_LOCALE;
}

/** An Accept-Language header's tags, most preferred first (q=0 left out). */
function acceptLanguageTags(header: string): string[] {
  const parts = header.slice(0, MAX_HEADER).split(',').slice(0, MAX_TAGS);
  const weighted = parts.map((part, index) => {
    const [tag = '', ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=');
      if (name?.trim().toLowerCase() === 'q') q = Number(value?.trim() ?? '1');
    }
    return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
  });
  return weighted
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((w) => w.tag);
}
