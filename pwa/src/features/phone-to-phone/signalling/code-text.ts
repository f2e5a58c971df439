/**
 * Bytes as text a QR code and a person can both carry: RFC 4648 base32, upper case, no padding — letters A–Z and
 * digits 2–7, all inside a QR code's alphanumeric mode (5.5 bits a character instead of byte mode's 8), and nothing
 * a camera's decoder might read as another character set. A CRC-16 at the end refuses a mistyped code before WebRTC
 * gets it, with a reason a person can act on.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CHECK_LENGTH = 2;

/**
 * Characters a person may type for one that is in the alphabet: base32 has no 0 or 1, so a 0 can only be an O and a
 * 1 an I read off a screen (the code's L is drawn in capitals, never confused with 1 there). Lower case is the same
 * letter. Spaces, dashes and line breaks are how the code was grouped, and are dropped.
 */
const TYPED_AS = new Map([
  ['0', 'O'],
  ['1', 'I'],
]);
const SEPARATORS = new Set([' ', '-', '\t', '\n', '\r', '\u00a0']);

/** CRC-16/CCITT-FALSE: every single error and every burst of up to 16 bits is caught; the rest 65,535 times in 65,536. */
function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

export function bytesToCode(payload: Uint8Array): string {
  const check = crc16(payload);
  const bytes = Uint8Array.from([...payload, check >> 8, check & 0xff]);
  let code = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      code += ALPHABET[(buffer >> bits) & 0x1f];
    }
  }
  if (bits > 0) code += ALPHABET[(buffer << (5 - bits)) & 0x1f];
  return code;
}

export type CleanedCode = { ok: true; code: string } | { ok: false; character: string };

/** The code as typed or scanned, in the alphabet; or the first character that cannot be part of a code. */
export function cleanCode(text: string): CleanedCode {
  let code = '';
  for (const typed of text) {
    if (SEPARATORS.has(typed)) continue;
    const upper = typed.toUpperCase();
    const character = TYPED_AS.get(upper) ?? upper;
    if (!ALPHABET.includes(character) || character.length !== 1) return { ok: false, character: typed };
    code += character;
  }
  return { ok: true, code };
}

export type CodeBytes = { ok: true; payload: Uint8Array } | { ok: false; problem: 'incomplete' | 'mistyped' };

/**
 * The bytes a cleaned code carries, once its check matches. `payloadLooksCut` says whether bytes that fail the check
 * are shorter than their own header says, so a cut-off code is told apart from a mistyped one.
 */
export function codeToBytes(code: string, payloadLooksCut: (bytes: Uint8Array) => boolean): CodeBytes {
  const bytes = new Uint8Array(Math.floor((code.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const character of code) {
    buffer = ((buffer << 5) | ALPHABET.indexOf(character)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  // Base32 of whole bytes leaves fewer than 5 spare bits, all zero; anything else lost or gained a character.
  const wellFormed = bits < 5 && (buffer & ((1 << bits) - 1)) === 0;
  if (bytes.length <= CHECK_LENGTH) return { ok: false, problem: 'incomplete' };
  const payload = bytes.subarray(0, bytes.length - CHECK_LENGTH);
  const check = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!;
  if (wellFormed && crc16(payload) === check) return { ok: true, payload };
  return { ok: false, problem: payloadLooksCut(bytes) ? 'incomplete' : 'mistyped' };
}

/** The code in groups of four, as a person reads it off one screen and types it on another. */
export function groupForTyping(code: string): string {
  const groups: string[] = [];
  for (let at = 0; at < code.length; at += 4) groups.push(code.slice(at, at + 4));
  return groups.join(' ');
}
