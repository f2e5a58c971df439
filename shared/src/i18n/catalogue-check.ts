import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { ERROR_PREFIX } from './error-prefix.ts';

/**
 * The rules every message catalogue is held to (decision 0257), as plain functions over plain data so the check
 * script (scripts/i18n.ts, run by `pnpm check`) and its tests share them. Not part of the app: nothing that ships
 * imports this file, so the ICU parser never reaches a phone.
 */

/** A Luganda entry: the text, and whether a native speaker still has to read it. */
export interface LugandaEntry {
  message: string;
  review?: boolean;
  note?: string;
}

/** One namespace (an area of the app, loaded on its own): English and Luganda, by message id. */
export interface NamespaceCatalogues {
  namespace: string;
  en: Record<string, string>;
  lg: Record<string, LugandaEntry>;
}

export interface CheckResult {
  errors: string[];
  /** Compiled messages by namespace and locale, ready to be written out. */
  compiled: Record<string, { en: Record<string, CompiledMessage>; lg: Record<string, CompiledMessage> }>;
  strings: number;
  flagged: Array<{ namespace: string; id: string; en: string; lg: string; note?: string }>;
}

/** `{name}`, `{count, plural, …}`: every argument a message takes, nested ones included, sorted. */
export function placeholders(message: CompiledMessage): string[] {
  const names = new Set<string>();
  const visit = (tokens: CompiledMessage) => {
    for (const token of tokens) {
      if (typeof token === 'string') continue;
      const [name, , format] = token;
      names.add(name);
      if (format && typeof format === 'object') {
        for (const [key, choice] of Object.entries(format as Record<string, unknown>)) {
          if (key !== 'offset' && Array.isArray(choice)) visit(choice as CompiledMessage);
        }
      }
    }
  };
  visit(message);
  return [...names].sort();
}

/** Compiles one message; a malformed one is reported with where it is, never thrown. */
function compile(where: string, text: unknown, errors: string[]): CompiledMessage | null {
  if (typeof text !== 'string' || text.trim() === '') {
    errors.push(`${where}: the message is empty or not text`);
    return null;
  }
  try {
    return compileMessageOrThrow(text);
  } catch (error) {
    errors.push(`${where}: malformed ICU message (${(error as Error).message.split('\n')[0]})`);
    return null;
  }
}

/** Error messages are found by their English text (see ERROR_PREFIX), and only the server's. */
export const ERROR_NAMESPACE = 'server';

const isUsed = (namespace: string, id: string, english: string, sources: readonly string[]) => {
  if (namespace === ERROR_NAMESPACE && id.startsWith(ERROR_PREFIX))
    return sources.some((text) => text.includes(english));
  return sources.some((text) => text.includes(`'${id}'`) || text.includes(`"${id}"`) || text.includes(`\`${id}\``));
};

/**
 * Checks the catalogues against each other and the code: an id missing in either language, an id no code uses, a
 * malformed ICU message, placeholders that differ between the languages, a Luganda entry of the wrong shape.
 * `sources` are the texts of the code that may use a message.
 */
export function checkCatalogues(namespaces: readonly NamespaceCatalogues[], sources: readonly string[]): CheckResult {
  const errors: string[] = [];
  const compiled: CheckResult['compiled'] = {};
  const flagged: CheckResult['flagged'] = [];
  const seen = new Map<string, string>();
  let strings = 0;
  for (const { namespace, en, lg } of namespaces) {
    const out = { en: {} as Record<string, CompiledMessage>, lg: {} as Record<string, CompiledMessage> };
    compiled[namespace] = out;
    for (const id of Object.keys(lg)) {
      if (!(id in en)) errors.push(`${namespace}: "${id}" is in Luganda but missing in English`);
    }
    for (const [id, english] of Object.entries(en)) {
      strings += 1;
      const other = seen.get(id);
      if (other) errors.push(`${namespace}: "${id}" is also an id in ${other}`);
      seen.set(id, namespace);
      const enMessage = compile(`${namespace} en "${id}"`, english, errors);
      if (enMessage) out.en[id] = enMessage;
      if (!isUsed(namespace, id, english, sources)) errors.push(`${namespace}: "${id}" is used by no code`);
      const entry = lg[id];
      if (entry === undefined) {
        errors.push(`${namespace}: "${id}" is missing in Luganda`);
        continue;
      }
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        errors.push(`${namespace} lg "${id}": expected { "message": …, "review"?: true, "note"?: … }`);
        continue;
      }
      if (entry.review !== undefined && typeof entry.review !== 'boolean')
        errors.push(`${namespace} lg "${id}": "review" must be true or false`);
      const lgMessage = compile(`${namespace} lg "${id}"`, entry.message, errors);
      if (!lgMessage) continue;
      out.lg[id] = lgMessage;
      if (entry.review) flagged.push({ namespace, id, en: english, lg: entry.message, note: entry.note });
      if (enMessage) {
        const a = placeholders(enMessage).join(', ');
        const b = placeholders(lgMessage).join(', ');
        if (a !== b) errors.push(`${namespace}: "${id}" takes {${a}} in English but {${b}} in Luganda`);
      }
    }
  }
  return { errors, compiled, strings, flagged };
}

/** The review report (docs/luganda-review.md): what a native speaker should read, kept true by `pnpm check`. */
export function reviewReport(result: Pick<CheckResult, 'strings' | 'flagged'>): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '# Luganda strings to review',
    '',
    'Generated by `scripts/i18n.ts` from `shared/src/i18n/catalogue/` (decision 0257); `pnpm check` fails while it is',
    'out of date. A Luganda entry with `"review": true` was written without a native speaker; once one has read it, fix',
    'the text if needed and drop the flag.',
    '',
    `**${result.flagged.length} of ${result.strings} Luganda strings are flagged for review.**`,
    '',
  ];
  if (result.flagged.length > 0) {
    lines.push('| namespace | id | English | Luganda | note |', '| --- | --- | --- | --- | --- |');
    for (const f of result.flagged) {
      lines.push(`| ${f.namespace} | \`${f.id}\` | ${cell(f.en)} | ${cell(f.lg)} | ${cell(f.note ?? '')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
