import { instructionSteps } from '@filamu/shared';
import { XMLParser } from 'fast-xml-parser';

/**
 * DPO API3G v6 XML: building requests and reading responses.
 *
 * Reading rules (dpo-protocol P5–P7):
 * - every value is a string; '000' stays '000' (fast-xml-parser's number parsing is off);
 * - entities are decoded by us, leniently: a bare `&` stays as it is and numeric entities without the
 *   trailing `;` (`Shortly&#8218 you will…`) are decoded anyway, so DPO's sloppy XML never fails the parse;
 * - `mobileoption` may be one element or many, under `API3G > paymentoptions`, `paymentoptions` or bare.
 */

/** An element tree for a request: insertion order is element order; undefined values are left out. */
export interface XmlTree {
  [element: string]: XmlValue;
}
type XmlValue = string | number | undefined | RawXml | XmlTree | XmlTree[];

/** Text inserted verbatim, unescaped (the sandbox uses it to reproduce DPO's malformed instructions). */
export class RawXml {
  constructor(readonly xml: string) {}
}

/** A parsed element: text, or children (repeated elements become arrays). */
type XmlNode = string | { [element: string]: XmlNode | XmlNode[] };
export type XmlObject = { [element: string]: XmlNode | XmlNode[] };

/** Escapes `& < > " '` in a value placed in element text (P14). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

const ELEMENT_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function renderTree(tree: XmlTree): string {
  let out = '';
  for (const [name, value] of Object.entries(tree)) {
    if (value === undefined) continue;
    if (!ELEMENT_NAME.test(name)) throw new Error(`Invalid XML element name: ${name}`);
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const inner =
        item instanceof RawXml ? item.xml : typeof item === 'object' ? renderTree(item) : escapeXml(String(item));
      out += `<${name}>${inner}</${name}>`;
    }
  }
  return out;
}

/** A whole API3G request document: `<API3G><CompanyToken/><Request/>…</API3G>`. */
export function buildRequestXml(companyToken: string, request: string, body: XmlTree = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?><API3G>${renderTree({ CompanyToken: companyToken, Request: request, ...body })}</API3G>`;
}

/** A whole API3G response document (used by the sandbox). */
export function buildResponseXml(body: XmlTree): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<API3G>${renderTree(body)}</API3G>`;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes the five XML entities and numeric entities (with or without the trailing `;`).
 * Anything else, including a bare `&` and unknown or invalid entities, is kept verbatim.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#x([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|(amp|lt|gt|quot|apos);)/g,
    (match, hex, dec, named) => {
      if (named !== undefined) return NAMED_ENTITIES[named as string] ?? match;
      const codePoint = hex !== undefined ? parseInt(hex as string, 16) : parseInt(dec as string, 10);
      const valid = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
      return valid ? String.fromCodePoint(codePoint) : match;
    },
  );
}

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  processEntities: false,
  htmlEntities: false,
  trimValues: true,
  removeNSPrefix: true,
});

function decodeTree(node: unknown): XmlNode | XmlNode[] {
  if (typeof node === 'string') return decodeEntities(node);
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (Array.isArray(node)) return node.map((item) => decodeTree(item) as XmlNode);
  const out: XmlObject = Object.create(null) as XmlObject;
  if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      out[key] = decodeTree(value);
    }
  }
  return out;
}

/**
 * Free-text elements DPO fills with human text that may hold raw HTML, a bare `&` or broken entities (P7).
 * Like DPO's C# SDK, their content is wrapped in CDATA before parsing so it always reads as text.
 */
const FREE_TEXT = ['instructions', 'ResultExplanation', 'Explanation'];

/**
 * Plain scanning, not a lazy regex: `<(a|b)>([\s\S]*?)<\/\1>` looks for a closing tag from every opening tag, so
 * thousands of unclosed openings cost thousands of scans to the end (decision 0103). Here an element whose
 * closing tag is missing stops the search for that name: later openings cannot find one either.
 */
export function shieldFreeText(xml: string): string {
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  let at = xml.indexOf('<');
  while (at !== -1) {
    const name = FREE_TEXT.find((n) => !unclosed.has(n) && xml.startsWith(`<${n}>`, at));
    if (name === undefined) {
      at = xml.indexOf('<', at + 1);
      continue;
    }
    const start = at + name.length + 2;
    const end = xml.indexOf(`</${name}>`, start);
    if (end === -1) {
      unclosed.add(name);
      continue;
    }
    const content = xml.slice(start, end);
    if (!content.includes('<![CDATA[') && !content.includes(']]>')) {
      out += `${xml.slice(copied, at)}<${name}><![CDATA[${content}]]>`;
      copied = end;
    }
    at = xml.indexOf('<', end + name.length + 3);
  }
  return copied === 0 ? xml : out + xml.slice(copied);
}

/** Parses any XML text leniently; null when there is no element at all. */
export function parseXml(text: string): XmlObject | null {
  let raw: unknown;
  try {
    raw = parser.parse(shieldFreeText(text));
  } catch {
    return null;
  }
  const tree = decodeTree(raw);
  if (typeof tree === 'string' || Array.isArray(tree) || Object.keys(tree).length === 0) return null;
  return tree;
}

/**
 * Parses an API3G document and returns the children of `<API3G>`. A document whose root is not API3G
 * is returned whole, so root-less shapes (`paymentoptions` at the top) still read. Null when unreadable.
 */
export function parseApi3g(text: string): XmlObject | null {
  const tree = parseXml(text);
  if (!tree) return null;
  const root = tree.API3G;
  if (root === undefined) return tree;
  const first = Array.isArray(root) ? root[0] : root;
  if (first === undefined) return null;
  if (typeof first === 'string') return Object.create(null) as XmlObject; // <API3G/> or text only
  return first;
}

/** The text of a child element; the first one when repeated; undefined when absent or not text. */
export function text(node: XmlObject | undefined, name: string): string | undefined {
  if (!node || !Object.hasOwn(node, name)) return undefined;
  const value = node[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** A child element that has children of its own. */
export function child(node: XmlObject | undefined, name: string): XmlObject | undefined {
  if (!node || !Object.hasOwn(node, name)) return undefined;
  const value = node[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && typeof first === 'object' ? first : undefined;
}

/** Every occurrence of a child element that has children (one-or-many normalised to an array). */
function children(node: XmlObject | undefined, name: string): XmlObject[] {
  if (!node || !Object.hasOwn(node, name)) return [];
  const value = node[name];
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is XmlObject => typeof item === 'object' && item !== null);
}

/** True when an element was sent more than once (DPO code 960). */
export function isRepeated(node: XmlObject | undefined, name: string): boolean {
  return !!node && Object.hasOwn(node, name) && Array.isArray(node[name]);
}

/** The status code of any operation's response: `StatusCode ?? Result ?? Code ?? ResultCode` (P6). */
export function readStatus(node: XmlObject): { code: string | undefined; explanation: string } {
  const code = text(node, 'StatusCode') ?? text(node, 'Result') ?? text(node, 'Code') ?? text(node, 'ResultCode');
  const explanation = text(node, 'ResultExplanation') ?? text(node, 'Explanation') ?? '';
  return { code: code?.trim(), explanation };
}

/** One entry of GetMobilePaymentOptions, every field as DPO sent it (strings). */
export interface MobileOption {
  country: string;
  countryCode: string;
  /** Send this exactly as returned as `MNO` to ChargeTokenMobile. */
  paymentName: string;
  logo?: string;
  cellularPrefix?: string;
  amount?: string;
  currency?: string;
  /** The full instructions text, entities decoded. */
  instructions: string;
  /** The `;`-separated steps of the instructions, trimmed, empty ones dropped. */
  steps: string[];
  fee?: string;
  total?: string;
}

/** The instruction steps, split by the one parser the screens use too (docs/decisions/0025). */
export function splitInstructions(instructions: string): string[] {
  return instructionSteps(instructions);
}

/**
 * All `mobileoption` entries of a GetMobilePaymentOptions response, whatever the shape:
 * under `paymentoptions` (root kept or dropped) or bare at the top; one or many.
 */
export function readMobileOptions(root: XmlObject): MobileOption[] {
  const holders = [root, ...children(root, 'paymentoptions'), ...children(root, 'API3G')];
  for (const api3g of children(root, 'API3G')) holders.push(...children(api3g, 'paymentoptions'));
  const options: MobileOption[] = [];
  for (const holder of holders) {
    for (const option of children(holder, 'mobileoption')) {
      const paymentName = text(option, 'paymentname');
      if (!paymentName) continue;
      const instructions = text(option, 'instructions') ?? '';
      options.push({
        country: text(option, 'country') ?? '',
        countryCode: text(option, 'countryCode') ?? text(option, 'countrycode') ?? '',
        paymentName,
        logo: text(option, 'logo'),
        cellularPrefix: text(option, 'celluarprefix') ?? text(option, 'cellularprefix'),
        amount: text(option, 'amount'),
        currency: text(option, 'currency'),
        instructions,
        steps: splitInstructions(instructions),
        fee: text(option, 'fee'),
        total: text(option, 'total'),
      });
    }
  }
  return options;
}

/** Flattens the text children of an element into a record (for logs and the raw part of results). */
export function flatten(node: XmlObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(node)) {
    const value = text(node, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
