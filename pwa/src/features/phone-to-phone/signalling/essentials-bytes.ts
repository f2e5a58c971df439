import {
  type HostAddress,
  type HostCandidate,
  ICE_PWD_LENGTHS,
  ICE_UFRAG_LENGTHS,
  MAX_CANDIDATES,
  type SessionEssentials,
  type SetupRole,
} from './session-essentials.ts';

/**
 * The essentials of a session description as the fewest bytes (decision 0243), for a QR code or a code typed by hand:
 *
 *   version (1) · type, DTLS role and candidate count (1) · ufrag length (1) · pwd length (1)
 *   · ufrag and pwd at 6 bits a character · SHA-256 fingerprint (32)
 *   · per candidate: kind (1), address (4 for IPv4, 16 for IPv6 or an mDNS name's UUID), port (2)
 *
 * About 85 bytes for an offer with an IPv4 and an IPv6 candidate. A later layout gets a new version byte, so an older
 * app can say "update Filamu" instead of reading it wrong.
 */
export const FORMAT_VERSION = 1;

const SETUP_ROLES: readonly SetupRole[] = ['actpass', 'active', 'passive'];
const ADDRESS_KINDS = { ipv4: 4, ipv6: 6, mdns: 16 } as const;
const ADDRESS_LENGTHS = { ipv4: 4, ipv6: 16, mdns: 16 } as const;
/** ICE characters (RFC 8839 `ice-char`) are exactly base64's alphabet: 6 bits each. */
const ICE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const HEADER_LENGTH = 4;
const FINGERPRINT_LENGTH = 32;
const PORT_LENGTH = 2;

function iceLength(characters: number): number {
  return Math.ceil((characters * 6) / 8);
}

function packIce(text: string): Uint8Array {
  const bytes = new Uint8Array(iceLength(text.length));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const character of text) {
    buffer = ((buffer << 6) | ICE_ALPHABET.indexOf(character)) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  if (bits > 0) bytes[at] = (buffer << (8 - bits)) & 0xff;
  return bytes;
}

function unpackIce(bytes: Uint8Array, characters: number): string {
  let text = '';
  let buffer = 0;
  let bits = 0;
  let at = 0;
  while (text.length < characters) {
    if (bits < 6) {
      buffer = ((buffer << 8) | bytes[at++]!) & 0xffff;
      bits += 8;
    }
    bits -= 6;
    text += ICE_ALPHABET[(buffer >> bits) & 0x3f];
  }
  return text;
}

function addressBytes(address: HostAddress): Uint8Array {
  return address.kind === 'mdns' ? address.uuid : address.bytes;
}

/** The bytes of `essentials`; it came from `sessionEssentials`, so its lengths already fit. */
export function essentialsToBytes(essentials: SessionEssentials): Uint8Array {
  const { iceUfrag, icePwd, candidates } = essentials;
  const parts: number[] = [
    FORMAT_VERSION,
    ((essentials.type === 'answer' ? 1 : 0) << 7) | (SETUP_ROLES.indexOf(essentials.setup) << 5) | candidates.length,
    iceUfrag.length,
    icePwd.length,
    ...packIce(iceUfrag + icePwd),
    ...essentials.fingerprint,
  ];
  for (const { address, port } of candidates) {
    parts.push(ADDRESS_KINDS[address.kind], ...addressBytes(address), port >> 8, port & 0xff);
  }
  return Uint8Array.from(parts);
}

export type BytesProblem = 'incomplete' | 'too-long' | 'unknown-version' | 'malformed';

export type BytesReading = { ok: true; essentials: SessionEssentials } | { ok: false; problem: BytesProblem };

function kindOf(byte: number): HostAddress['kind'] | null {
  if (byte === ADDRESS_KINDS.ipv4) return 'ipv4';
  if (byte === ADDRESS_KINDS.ipv6) return 'ipv6';
  if (byte === ADDRESS_KINDS.mdns) return 'mdns';
  return null;
}

/**
 * How many bytes the header at the start of `bytes` says the whole should be, so a cut-off code can be told from a
 * mistyped one; null when even the header cannot be read.
 */
export function expectedLength(bytes: Uint8Array): number | null {
  if (bytes.length < HEADER_LENGTH || bytes[0] !== FORMAT_VERSION) return null;
  let length = HEADER_LENGTH + iceLength(bytes[2]! + bytes[3]!) + FINGERPRINT_LENGTH;
  const count = bytes[1]! & 0x0f;
  for (let index = 0; index < count; index += 1) {
    const kind = kindOf(bytes[length] ?? -1);
    // Past the bytes there are, each missing candidate costs at least the shortest one.
    length += 1 + (kind ? ADDRESS_LENGTHS[kind] : ADDRESS_LENGTHS.ipv4) + PORT_LENGTH;
  }
  return length;
}

/** Reads bytes written by `essentialsToBytes`, refusing anything it would not have written. */
export function bytesToEssentials(bytes: Uint8Array): BytesReading {
  if (bytes.length === 0) return { ok: false, problem: 'incomplete' };
  if (bytes[0] !== FORMAT_VERSION)
    return { ok: false, problem: bytes[0]! > FORMAT_VERSION ? 'unknown-version' : 'malformed' };
  const expected = expectedLength(bytes);
  if (expected === null || bytes.length < expected) return { ok: false, problem: 'incomplete' };
  if (bytes.length > expected) return { ok: false, problem: 'too-long' };

  const flags = bytes[1]!;
  const setup = SETUP_ROLES[(flags >> 5) & 0x03];
  const count = flags & 0x0f;
  const ufragLength = bytes[2]!;
  const pwdLength = bytes[3]!;
  const fits = (length: number, lengths: { min: number; max: number }) =>
    length >= lengths.min && length <= lengths.max;
  if (
    (flags & 0x10) !== 0 ||
    !setup ||
    count > MAX_CANDIDATES ||
    !fits(ufragLength, ICE_UFRAG_LENGTHS) ||
    !fits(pwdLength, ICE_PWD_LENGTHS)
  ) {
    return { ok: false, problem: 'malformed' };
  }

  let at = HEADER_LENGTH;
  const ice = unpackIce(bytes.subarray(at, at + iceLength(ufragLength + pwdLength)), ufragLength + pwdLength);
  at += iceLength(ufragLength + pwdLength);
  const fingerprint = bytes.slice(at, at + FINGERPRINT_LENGTH);
  at += FINGERPRINT_LENGTH;

  const candidates: HostCandidate[] = [];
  for (let index = 0; index < count; index += 1) {
    const kind = kindOf(bytes[at]!);
    if (!kind) return { ok: false, problem: 'malformed' };
    const address = bytes.slice(at + 1, at + 1 + ADDRESS_LENGTHS[kind]);
    at += 1 + ADDRESS_LENGTHS[kind];
    const port = (bytes[at]! << 8) | bytes[at + 1]!;
    at += PORT_LENGTH;
    if (port === 0) return { ok: false, problem: 'malformed' };
    candidates.push({ address: kind === 'mdns' ? { kind, uuid: address } : { kind, bytes: address }, port });
  }

  return {
    ok: true,
    essentials: {
      type: flags & 0x80 ? 'answer' : 'offer',
      iceUfrag: ice.slice(0, ufragLength),
      icePwd: ice.slice(ufragLength),
      fingerprint,
      setup,
      candidates,
    },
  };
}
