/**
 * DPO's mobile-money instructions as steps a person can follow (docs/decisions/0025). The gateway sends one
 * string: steps joined by `;`, each numbered "1.", with entities that may lack their `;` (`don&#39t`,
 * `Shortly&#8218 you`) or arrive encoded twice (`&amp;#39`), sometimes a stray HTML tag (dpo-protocol P7).
 */

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  sbquo: ',',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
};

// Numeric entities with or without `;`; named ones with `;`, or without it when no letter or digit follows.
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6});?|#(\d{1,7});?|([A-Za-z]+);|([A-Za-z]+)(?![A-Za-z0-9]))/g;

function decodeOnce(text: string): string {
  return text.replace(ENTITY, (match, hex?: string, dec?: string, named?: string, bare?: string) => {
    const name = named ?? bare;
    if (name !== undefined) return NAMED[name.toLowerCase()] ?? match;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : match;
  });
}

/** HTML entities decoded leniently; twice-encoded ones (`&amp;#39;`) too. Unknown ones stay as written. */
export function decodeHtmlEntities(text: string): string {
  let current = text;
  // Two passes at most: `&amp;#39` is DPO's own double encoding, a third level would be someone's literal text.
  for (let pass = 0; pass < 2 && current.includes('&'); pass += 1) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

const LEADING_NUMBER = /^\s*\(?\d{1,2}\s*[.)]\s*/;

/** Where "2. …", "3. …" start inside text that has no `;` between its steps: only an unbroken 1, 2, 3… run. */
function splitOnNumbering(text: string): string[] {
  const starts: number[] = [];
  let expected = 1;
  for (const match of text.matchAll(/(?:^|\s)(\d{1,2})[.)]\s/g)) {
    if (Number(match[1]) !== expected) continue;
    starts.push(match.index + (match[0].startsWith(match[1]!) ? 0 : 1));
    expected += 1;
  }
  if (starts.length < 2) return [text];
  if (starts[0]! > 0 && text.slice(0, starts[0]).trim()) starts.unshift(0);
  return starts.map((start, i) => text.slice(start, starts[i + 1]));
}

/**
 * The steps to show, in order: split on `;`, line breaks, `<br>` or an inline "1. … 2. …" numbering;
 * entities decoded, tags dropped, the leading "N." removed (the list numbers them), nothing shortened.
 */
export function instructionSteps(instructions: string | null | undefined): string[] {
  if (!instructions) return [];
  // DPO writes a comma as `&#8218` (a low quotation mark); show the comma it means.
  const text = decodeHtmlEntities(instructions).replace(/\u201a/g, ',');
  return text
    .split(/;|\r?\n|<br\s*\/?>/i)
    .map((part) => part.replace(/<\/?[A-Za-z][^<>]*>/g, ' '))
    .flatMap(splitOnNumbering)
    .map((step) => step.replace(LEADING_NUMBER, '').replace(/\s+/g, ' ').trim())
    .filter((step) => step.length > 0);
}
