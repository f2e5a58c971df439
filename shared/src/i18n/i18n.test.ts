import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { checkCatalogues, reviewReport } from './catalogue-check.ts';
import { localeFromLanguages } from './locale.ts';
import { localizeErrorMessage, serverTranslator } from './server.ts';
import { i18nFor, translatorOf } from './translate.ts';

const FILMS = '{count, plural, one {# film} other {# films}}';
const FILMS_LG = '{count, plural, one {firimu #} other {firimu #}}';

describe('the one translator and formatter', () => {
  const lg = translatorOf(i18nFor('lg', { films: compileMessage(FILMS_LG), due: compileMessage('Ekoma {when}') }));
  const en = translatorOf(i18nFor('en', { films: compileMessage(FILMS) }));

  it('plurals follow each language (CLDR: lg has one and other)', () => {
    expect(en.t('films', { count: 1 })).toBe('1 film');
    expect(en.t('films', { count: 3 })).toBe('3 films');
    expect(lg.t('films', { count: 1 })).toBe('firimu 1');
    expect(lg.t('films', { count: 1200 })).toBe('firimu 1,200');
  });

  it('dates and numbers in Luganda, on Kampala time', () => {
    // 22:00 UTC on the 26th is already the 27th in Kampala.
    expect(lg.date(new Date('2026-11-26T22:00:00Z'), { dateStyle: 'full' })).toBe('Lwakutaano, 27 Novemba 2026');
    expect(lg.number(15_000, { style: 'currency', currency: 'UGX' })).toContain('USh');
    expect(lg.number(1_234_567)).toBe('1,234,567');
    expect(lg.t('due', { when: lg.date(new Date('2026-12-31T12:00:00Z'), { dateStyle: 'medium' }) })).toBe(
      'Ekoma 31 Des 2026',
    );
  });

  it('the server catalogue speaks both languages, and error messages are found by their English words', () => {
    expect(serverTranslator('en').t('sms.phoneCode', { code: '123456', minutes: 10 })).toContain('123456');
    expect(serverTranslator('lg').t('sms.phoneCode', { code: '123456', minutes: 10 })).toContain('123456');
    const english = 'Invalid credentials. Please try again.';
    expect(localizeErrorMessage('en', english)).toBe(english);
    expect(localizeErrorMessage('lg', english)).not.toBe(english);
    expect(localizeErrorMessage('lg', 'A message no catalogue holds.')).toBe('A message no catalogue holds.');
  });
});

describe('localeFromLanguages', () => {
  it('Luganda for lg and lg-UG, English otherwise', () => {
    expect(localeFromLanguages(['lg'])).toBe('lg');
    expect(localeFromLanguages(['lg-UG', 'en'])).toBe('lg');
    expect(localeFromLanguages(['en-UG', 'lg'])).toBe('en');
    expect(localeFromLanguages(['sw', 'lg'])).toBe('lg');
    expect(localeFromLanguages(['fr', 'sw'])).toBe('en');
    expect(localeFromLanguages([])).toBe('en');
    expect(localeFromLanguages(undefined)).toBe('en');
  });

  it('reads Accept-Language by weight, bounded', () => {
    expect(localeFromLanguages('lg-UG,lg;q=0.9,en;q=0.8')).toBe('lg');
    expect(localeFromLanguages('en;q=0.5, lg;q=0.9')).toBe('lg');
    expect(localeFromLanguages('en-GB,en;q=0.9')).toBe('en');
    expect(localeFromLanguages('lg;q=0, en')).toBe('en');
    expect(localeFromLanguages('lg;q=nonsense')).toBe('en');
    expect(localeFromLanguages('')).toBe('en');
    expect(localeFromLanguages(`${'xx,'.repeat(5000)}lg`)).toBe('en');
  });
});

describe('the catalogue check', () => {
  const fixture = (overrides: { en?: Record<string, string>; lg?: Record<string, unknown> } = {}) => [
    {
      namespace: 'web',
      en: overrides.en ?? { 'a.hello': 'Hello {name}', 'a.films': FILMS },
      lg: (overrides.lg ?? {
        'a.hello': { message: 'Gyebale {name}' },
        'a.films': { message: FILMS_LG, review: true },
      }) as never,
    },
  ];
  const code = [`t('a.hello'); t('a.films'); t('a.extra')`];

  it('passes good catalogues and counts what needs review', () => {
    const result = checkCatalogues(fixture(), code);
    expect(result.errors).toEqual([]);
    expect(result.strings).toBe(2);
    expect(result.flagged.map((f) => f.id)).toEqual(['a.films']);
    expect(reviewReport(result)).toContain('**1 of 2 Luganda strings are flagged for review.**');
  });

  it('fails on an id missing in either language', () => {
    const noLuganda = checkCatalogues(fixture({ lg: { 'a.hello': { message: 'Gyebale {name}' } } }), code);
    expect(noLuganda.errors).toEqual(['web: "a.films" is missing in Luganda']);
    const noEnglish = checkCatalogues(
      fixture({
        en: { 'a.hello': 'Hello {name}' },
        lg: { 'a.hello': { message: 'Gyebale {name}' }, 'a.extra': { message: 'Ekirala' } },
      }),
      code,
    );
    expect(noEnglish.errors).toEqual(['web: "a.extra" is in Luganda but missing in English']);
  });

  it('fails on an id no code uses', () => {
    const result = checkCatalogues(fixture(), [`t('a.hello')`]);
    expect(result.errors).toEqual(['web: "a.films" is used by no code']);
  });

  it('fails on a malformed ICU message, in either language', () => {
    const result = checkCatalogues(
      fixture({
        en: { 'a.hello': 'Hello {name', 'a.films': FILMS },
        lg: { 'a.hello': { message: 'Gyebale {name}' }, 'a.films': { message: '{count, plural, one {x}' } },
      }),
      code,
    );
    expect(result.errors).toHaveLength(2);
    expect(result.errors[0]).toMatch(/^web en "a.hello": malformed ICU message/);
    expect(result.errors[1]).toMatch(/^web lg "a.films": malformed ICU message/);
  });

  it('fails on placeholders that differ between the languages', () => {
    const result = checkCatalogues(
      fixture({
        lg: { 'a.hello': { message: 'Gyebale {nam}' }, 'a.films': { message: FILMS_LG } },
      }),
      code,
    );
    expect(result.errors).toEqual(['web: "a.hello" takes {name} in English but {nam} in Luganda']);
  });

  it('fails on a Luganda entry of the wrong shape', () => {
    const result = checkCatalogues(
      fixture({ lg: { 'a.hello': 'Gyebale {name}', 'a.films': { message: FILMS_LG } } }),
      code,
    );
    expect(result.errors).toEqual(['web lg "a.hello": expected { "message": …, "review"?: true, "note"?: … }']);
  });

  it('a server error message is in use while its English text is written in the code', () => {
    const server = [
      { namespace: 'server', en: { 'error.gone': 'It is gone.' }, lg: { 'error.gone': { message: 'Kigenze.' } } },
    ];
    expect(checkCatalogues(server, [`throw new AppError('not_found', 'It is gone.')`]).errors).toEqual([]);
    expect(checkCatalogues(server, [`throw new AppError('not_found', 'Other.')`]).errors).toEqual([
      'server: "error.gone" is used by no code',
    ]);
  });
});
