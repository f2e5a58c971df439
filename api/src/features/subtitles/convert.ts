// Longer than 300 lines on purpose: one linear, hand-written SRT/WebVTT reader (no regular expressions on the file),
// whose parts share the cursor.
import { SUBTITLE_MAX_BYTES, SUBTITLE_MAX_CUES } from '@filamu/shared';

/**
 * SRT or WebVTT in, clean WebVTT out (decision 0172). Hand-written and linear in the text: every loop moves forward
 * through the characters or lines once, and the only look-ahead (a tag's `>`) stops at the next `<`, so no
 * character is read more than twice whatever the file holds. No regex touches the file.
 */

type SubtitleProblem = { kind: 'too_large'; bytes: number } | { kind: 'invalid'; line: number | null; message: string };

export type ConvertResult =
  { ok: true; vtt: string; bytes: number; cues: number; from: 'srt' | 'vtt' } | { ok: false; problem: SubtitleProblem };

interface Cue {
  start: number;
  end: number;
  settings: string;
  text: string;
}

const ARROW = '-->';
/** Tags a cue keeps (WebVTT's basic styling); every other tag is dropped, its text kept. */
const KEPT_TAGS = new Set(['i', '/i', 'b', '/b', 'u', '/u']);
/** Entities left as they are; any other `&` is written `&amp;`. */
const KEPT_ENTITIES = ['&amp;', '&lt;', '&gt;', '&nbsp;', '&lrm;', '&rlm;'];
/** Cue settings WebVTT defines; anything else on a timing line is dropped. */
const CUE_SETTINGS = new Set(['align', 'line', 'position', 'size', 'vertical']);
/** Hours beyond three digits are not a film's. */
const MAX_HOUR_DIGITS = 3;

class Refusal extends Error {
  constructor(
    readonly line: number | null,
    message: string,
  ) {
    super(message);
  }
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Converts and checks one subtitle file's text. */
export function convertSubtitles(input: string): ConvertResult {
  const inputBytes = utf8Bytes(input);
  if (inputBytes > SUBTITLE_MAX_BYTES) return { ok: false, problem: { kind: 'too_large', bytes: inputBytes } };
  try {
    const lines = splitLines(input);
    const isVtt = lines.length > 0 && isWebVttSignature(lines[0]!);
    const cues = isVtt ? parseBlocks(lines, 'vtt') : parseBlocks(lines, 'srt');
    if (cues.length === 0) {
      throw new Refusal(
        null,
        isVtt
          ? 'The WebVTT file has no cues (no "00:00:01.000 --> 00:00:04.000" lines followed by text).'
          : 'This is not an SRT or WebVTT file: no cues ("00:00:01,000 --> 00:00:04,000" lines followed by text) were found.',
      );
    }
    // Players expect start order; SRT files made by hand are not always in it (a stable sort keeps ties as written).
    cues.sort((a, b) => a.start - b.start);
    const vtt = writeVtt(cues);
    return { ok: true, vtt, bytes: utf8Bytes(vtt), cues: cues.length, from: isVtt ? 'vtt' : 'srt' };
  } catch (error) {
    if (error instanceof Refusal) {
      return { ok: false, problem: { kind: 'invalid', line: error.line, message: error.message } };
    }
    throw error;
  }
}

/**
 * The text as lines: a leading BOM dropped, CRLF and lone CR taken as line ends, and anything that is not text
 * (control characters, or U+FFFD, what a browser reads bytes that are not UTF-8 as) refused.
 */
function splitLines(input: string): string[] {
  const lines: string[] = [];
  let start = input.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNumber = 1;
  for (let i = start; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) {
      lines.push(input.slice(start, i));
      lineNumber++;
      if (code === 0x0d && input.charCodeAt(i + 1) === 0x0a) i++;
      start = i + 1;
    } else if ((code < 0x20 && code !== 0x09) || code === 0x7f || code === 0xfffd) {
      throw new Refusal(
        lineNumber,
        code === 0xfffd
          ? 'The file is not UTF-8 text. Save it as UTF-8 (most subtitle editors offer "UTF-8" under Save As).'
          : 'The file holds binary data, not subtitle text. Choose an .srt or .vtt file.',
      );
    }
  }
  lines.push(input.slice(start));
  return lines;
}

/** `WEBVTT` alone or followed by a space or tab, as the format requires. */
function isWebVttSignature(line: string): boolean {
  if (!line.startsWith('WEBVTT')) return false;
  const next = line.charCodeAt(6);
  return Number.isNaN(next) || next === 0x20 || next === 0x09;
}

const isBlank = (line: string) => line.trim() === '';

/**
 * Blocks are runs of non-blank lines. A block with a timing line (`-->`) is a cue: its text is the lines after
 * that one. SRT numbers and WebVTT identifiers before it are dropped; so are the WebVTT header, NOTE, STYLE and
 * REGION blocks, and (in SRT) blocks with no timing line at all, which are never shown anyway.
 */
function parseBlocks(lines: string[], format: 'srt' | 'vtt'): Cue[] {
  const cues: Cue[] = [];
  let i = 0;
  if (format === 'vtt') {
    // The header runs to the first blank line.
    while (i < lines.length && !isBlank(lines[i]!)) i++;
  }
  while (i < lines.length) {
    while (i < lines.length && isBlank(lines[i]!)) i++;
    if (i >= lines.length) break;
    const blockStart = i;
    while (i < lines.length && !isBlank(lines[i]!)) i++;
    const cue = cueOf(lines, blockStart, i, format);
    if (!cue) continue;
    if (cues.length >= SUBTITLE_MAX_CUES) {
      throw new Refusal(blockStart + 1, `The file has more than ${SUBTITLE_MAX_CUES} cues; no film has that many.`);
    }
    cues.push(cue);
  }
  return cues;
}

function cueOf(lines: string[], from: number, to: number, format: 'srt' | 'vtt'): Cue | null {
  const first = lines[from]!;
  if (format === 'vtt' && (startsWord(first, 'NOTE') || startsWord(first, 'STYLE') || startsWord(first, 'REGION'))) {
    return null;
  }
  // The timing line is the first line, or the second after an identifier (SRT's number).
  let timing = -1;
  if (first.includes(ARROW)) timing = from;
  else if (from + 1 < to && lines[from + 1]!.includes(ARROW)) timing = from + 1;
  if (timing === -1) return null;
  const { start, end, settings } = parseTiming(lines[timing]!, timing + 1, format);
  const text: string[] = [];
  for (let l = timing + 1; l < to; l++) {
    const clean = cleanCueLine(lines[l]!);
    if (clean.trim() !== '') text.push(clean);
  }
  if (text.length === 0) return null;
  return { start, end, settings, text: text.join('\n') };
}

function startsWord(line: string, word: string): boolean {
  if (!line.startsWith(word)) return false;
  const next = line.charCodeAt(word.length);
  return Number.isNaN(next) || next === 0x20 || next === 0x09;
}

/** `00:00:01,000 --> 00:00:04,000` (SRT) or `00:01.000 --> 00:04.000 align:start` (WebVTT). */
function parseTiming(line: string, lineNumber: number, format: 'srt' | 'vtt') {
  const arrow = line.indexOf(ARROW);
  const startText = line.slice(0, arrow).trim();
  const rest = line.slice(arrow + ARROW.length).trim();
  let endLength = 0;
  while (endLength < rest.length && rest[endLength] !== ' ' && rest[endLength] !== '\t') endLength++;
  const endText = rest.slice(0, endLength);
  const start = parseTimestamp(startText);
  const end = parseTimestamp(endText);
  if (start === null || end === null) {
    throw new Refusal(
      lineNumber,
      `Line ${lineNumber}: "${line.slice(0, 60)}" is not a timing line; write it as 00:00:01${format === 'srt' ? ',' : '.'}000 --> 00:00:04${format === 'srt' ? ',' : '.'}000.`,
    );
  }
  if (end <= start) {
    throw new Refusal(lineNumber, `Line ${lineNumber}: the cue ends (${endText}) before it starts (${startText}).`);
  }
  return { start, end, settings: format === 'vtt' ? keptSettings(rest.slice(endLength)) : '' };
}

/** `[h…:]mm:ss(.|,)mmm` → milliseconds; null when it is anything else. */
export function parseTimestamp(text: string): number | null {
  const parts = text.split(':');
  if (parts.length < 2 || parts.length > 3) return null;
  const hoursText = parts.length === 3 ? parts[0]! : '0';
  const minutesText = parts[parts.length - 2]!;
  const secondsPart = parts[parts.length - 1]!;
  if (hoursText.length === 0 || hoursText.length > MAX_HOUR_DIGITS || !allDigits(hoursText)) return null;
  if (minutesText.length !== 2 || !allDigits(minutesText)) return null;
  if (secondsPart.length !== 6) return null;
  const separator = secondsPart[2];
  if (separator !== '.' && separator !== ',') return null;
  const secondsText = secondsPart.slice(0, 2);
  const millisText = secondsPart.slice(3);
  if (!allDigits(secondsText) || !allDigits(millisText)) return null;
  const minutes = Number(minutesText);
  const seconds = Number(secondsText);
  if (minutes > 59 || seconds > 59) return null;
  return ((Number(hoursText) * 60 + minutes) * 60 + seconds) * 1000 + Number(millisText);
}

function allDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return text.length > 0;
}

/** Only WebVTT's own settings (`align:start`, `line:90%`…), each value of safe characters. */
function keptSettings(text: string): string {
  const kept: string[] = [];
  for (const token of text.split(' ')) {
    const colon = token.indexOf(':');
    if (colon <= 0) continue;
    const name = token.slice(0, colon);
    const value = token.slice(colon + 1);
    if (!CUE_SETTINGS.has(name) || value.length === 0 || value.length > 20 || !safeSettingValue(value)) continue;
    kept.push(`${name}:${value}`);
  }
  return kept.length > 0 ? ` ${kept.join(' ')}` : '';
}

function safeSettingValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '%' || c === '.' || c === ',' || c === '-';
    if (!ok) return false;
  }
  return true;
}

/**
 * One line of cue text made safe: <i>, <b>, <u> (and their ends) kept, every other tag (<font>, <c.x>, <v Name>,
 * <script>…) dropped with its text kept, ASS overrides ({\an8}) dropped, a stray `<`, `>` or `&` escaped, and
 * `-->` (which would end the cue early) written `--&gt;`.
 */
export function cleanCueLine(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '<' && startsTag(line[i + 1])) {
      // The tag ends at the next `>`, unless another `<` comes first: then this one was a stray `<`.
      let close = i + 1;
      while (close < line.length && line[close] !== '>' && line[close] !== '<') close++;
      if (close < line.length && line[close] === '>') {
        const name = tagName(line.slice(i + 1, close));
        if (KEPT_TAGS.has(name)) out += `<${name}>`;
        i = close + 1;
      } else {
        out += '&lt;';
        i++;
      }
    } else if (c === '<') {
      out += '&lt;';
      i++;
    } else if (c === '{' && line[i + 1] === '\\') {
      let close = i + 2;
      while (close < line.length && line[close] !== '}' && line[close] !== '{') close++;
      if (close < line.length && line[close] === '}') i = close + 1;
      else {
        out += c;
        i++;
      }
    } else if (c === '>') {
      out += '&gt;';
      i++;
    } else if (c === '&') {
      const entity = KEPT_ENTITIES.find((e) => line.startsWith(e, i));
      out += entity ?? '&amp;';
      i += entity ? entity.length : 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** A tag opens with a letter, `/`, or a digit (WebVTT's timestamp tags); `1 < 2` is text. */
function startsTag(c: string | undefined): boolean {
  if (c === undefined) return false;
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '/';
}

/** `i`, `/b`, `c.yellow` → `c`; lower-cased, so `<I>` counts as `<i>`. */
function tagName(inside: string): string {
  let end = 0;
  while (end < inside.length && inside[end] !== ' ' && inside[end] !== '.' && inside[end] !== '\t') end++;
  return inside.slice(0, end).toLowerCase();
}

function formatTimestamp(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  const millis = ms % 1000;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hours)}:${two(minutes)}:${two(seconds)}.${String(millis).padStart(3, '0')}`;
}

function writeVtt(cues: Cue[]): string {
  const parts = ['WEBVTT', ''];
  for (const cue of cues) {
    parts.push(`${formatTimestamp(cue.start)} --> ${formatTimestamp(cue.end)}${cue.settings}`, cue.text, '');
  }
  return parts.join('\n');
}
