import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * The message catalogues as the tests read them (decision 0257): every namespace of one language, by message id, so a
 * test finds a button by the words a person sees rather than by markup.
 */
export function catalogue(locale: 'en' | 'lg'): Record<string, string> {
  const dir = new URL(`../../shared/src/i18n/catalogue/${locale}/`, import.meta.url);
  const all: Record<string, string> = {};
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const entries = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<
      string,
      string | { message: string }
    >;
    for (const [id, entry] of Object.entries(entries)) all[id] = typeof entry === 'string' ? entry : entry.message;
  }
  return all;
}

/** A message with its simple `{placeholders}` filled in (no plurals: tests pick messages without). */
export function filled(messages: Record<string, string>, id: string, values: Record<string, string> = {}): string {
  const message = messages[id];
  if (message === undefined) throw new Error(`no message ${id}`);
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A message as a whole-text pattern: each placeholder matches any text. */
export function pattern(messages: Record<string, string>, id: string): RegExp {
  const parts = filled(messages, id).split(/\{\w+\}/);
  return new RegExp(`^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
}

/**
 * Switches the phone's theme and waits until the page wears it. Colour transitions are turned off first: the end
 * colours are what is judged, and a check mid-transition would measure a colour between the two themes.
 */
export async function wearTheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(
    (dark) => document.documentElement.classList.contains('dark') === dark,
    colorScheme === 'dark',
  );
}
