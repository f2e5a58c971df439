/**
 * What of a Chromium session description for one data channel the other phone cannot rebuild (decision 0243): the
 * ICE credentials, the DTLS certificate's SHA-256 fingerprint, the DTLS role and the UDP host candidates. Everything
 * else in the SDP is the same for every data-channel-only connection, so `describeSession` writes it back as constants.
 */

export type SessionType = 'offer' | 'answer';
export type SetupRole = 'actpass' | 'active' | 'passive';

/** A host candidate's address: an IP, or the mDNS name (`<uuid>.local`) Chromium shows instead when it hides IPs. */
export type HostAddress =
  { kind: 'ipv4'; bytes: Uint8Array } | { kind: 'ipv6'; bytes: Uint8Array } | { kind: 'mdns'; uuid: Uint8Array };

export interface HostCandidate {
  address: HostAddress;
  port: number;
}

export interface SessionEssentials {
  type: SessionType;
  iceUfrag: string;
  icePwd: string;
  /** The 32 bytes of the DTLS certificate's SHA-256 fingerprint. */
  fingerprint: Uint8Array;
  setup: SetupRole;
  candidates: HostCandidate[];
}

/** More than a phone on a hotspot has (its Wi-Fi IPv4, an IPv6 or two, mobile data); each costs up to 19 bytes. */
export const MAX_CANDIDATES = 8;
/** RFC 8839 allows up to 256; Chromium makes 4 and 24, and a longer one would only make the code longer to type. */
export const ICE_UFRAG_LENGTHS = { min: 4, max: 32 } as const;
export const ICE_PWD_LENGTHS = { min: 22, max: 64 } as const;
/** Past this many candidate lines the rest are not even parsed. */
const MAX_CANDIDATES_READ = 64;
/**
 * Which candidates a code keeps first when a phone has more than fit: a hotspot always gives its clients IPv4, while a
 * phone's IPv6 addresses are mostly its mobile network's. Chromium lists IPv4 first too, but ranks IPv6 higher.
 */
const KIND_ORDER = { ipv4: 0, mdns: 1, ipv6: 2 } as const;
/** A session description for one data channel is about 1 KB; this bounds the work on something else passed in. */
const MAX_SDP_LENGTH = 16_384;

const ICE_CHAR = /^[A-Za-z0-9+/]+$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MDNS_NAME = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseIpv4(text: string): Uint8Array | null {
  const parts = IPV4.exec(text);
  if (!parts) return null;
  const bytes = parts.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? Uint8Array.from(bytes) : null;
}

function parseIpv6(text: string): Uint8Array | null {
  if (text.length > 39 || text.includes('%')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  if (!all.every((group) => HEX_GROUP.test(group))) return null;
  const bytes = new Uint8Array(16);
  all.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function parseMdnsName(text: string): Uint8Array | null {
  const parts = MDNS_NAME.exec(text);
  return parts ? hexToBytes(parts.slice(1).join('')) : null;
}

function parseAddress(text: string): HostAddress | null {
  const ipv4 = parseIpv4(text);
  if (ipv4) return { kind: 'ipv4', bytes: ipv4 };
  const ipv6 = text.includes(':') ? parseIpv6(text) : null;
  if (ipv6) return { kind: 'ipv6', bytes: ipv6 };
  const uuid = parseMdnsName(text);
  return uuid ? { kind: 'mdns', uuid } : null;
}

/** `candidate:<foundation> <component> <transport> <priority> <address> <port> typ <type> …` (RFC 8839 §5.1). */
function parseCandidate(value: string): HostCandidate | null {
  const fields = value.split(' ');
  const [, component, transport, , address, port, typ, type] = fields;
  if (component !== '1' || transport?.toLowerCase() !== 'udp' || typ !== 'typ' || type !== 'host') return null;
  const portNumber = Number(port);
  if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65_535) return null;
  const parsed = address ? parseAddress(address) : null;
  return parsed ? { address: parsed, port: portNumber } : null;
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1)
    bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function hex(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let text = '';
  for (let index = from; index < to; index += 1) text += bytes[index]!.toString(16).padStart(2, '0');
  return text;
}

/**
 * The essentials of a local description Chromium made for one data channel. Throws when it is not one (audio or
 * video sections, no SHA-256 fingerprint, credentials longer than a code carries): the caller made it, so that is a
 * fault in the app, not something a person can fix.
 */
export function sessionEssentials(description: { type: SessionType; sdp: string }): SessionEssentials {
  if (description.sdp.length > MAX_SDP_LENGTH) throw new Error('The session description is too long to share.');
  const attributes = new Map<string, string>();
  const candidates: HostCandidate[] = [];
  let mediaSections = 0;
  for (const line of description.sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) {
      mediaSections += 1;
      if (!line.startsWith('m=application ') || !line.endsWith(' webrtc-datachannel')) {
        throw new Error('Only a data channel can be shared as a code.');
      }
    }
    if (!line.startsWith('a=')) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line.slice(2) : line.slice(2, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1);
    if (name === 'candidate') {
      const candidate = parseCandidate(value);
      if (candidate && candidates.length < MAX_CANDIDATES_READ) candidates.push(candidate);
    } else if (!attributes.has(name)) {
      attributes.set(name, value);
    }
  }
  if (mediaSections !== 1) throw new Error('Only one data channel can be shared as a code.');

  const iceUfrag = attributes.get('ice-ufrag') ?? '';
  const icePwd = attributes.get('ice-pwd') ?? '';
  const fitsIce = (text: string, lengths: { min: number; max: number }) =>
    text.length >= lengths.min && text.length <= lengths.max && ICE_CHAR.test(text);
  if (!fitsIce(iceUfrag, ICE_UFRAG_LENGTHS) || !fitsIce(icePwd, ICE_PWD_LENGTHS)) {
    throw new Error('The ICE credentials cannot be shared as a code.');
  }
  const [algorithm, digest] = (attributes.get('fingerprint') ?? '').split(' ');
  const fingerprintHex = digest?.split(':').join('') ?? '';
  if (algorithm?.toLowerCase() !== 'sha-256' || !/^[0-9A-Fa-f]{64}$/.test(fingerprintHex)) {
    throw new Error('The description has no SHA-256 certificate fingerprint.');
  }
  const setup = attributes.get('setup');
  if (setup !== 'actpass' && setup !== 'active' && setup !== 'passive') {
    throw new Error('The description has no DTLS role.');
  }
  return {
    type: description.type,
    iceUfrag,
    icePwd,
    fingerprint: hexToBytes(fingerprintHex),
    setup,
    candidates: candidates
      .sort((a, b) => KIND_ORDER[a.address.kind] - KIND_ORDER[b.address.kind])
      .slice(0, MAX_CANDIDATES),
  };
}

function formatAddress(address: HostAddress): string {
  if (address.kind === 'ipv4') return Array.from(address.bytes).join('.');
  if (address.kind === 'ipv6') {
    const groups: string[] = [];
    for (let index = 0; index < 16; index += 2)
      groups.push(((address.bytes[index]! << 8) | address.bytes[index + 1]!).toString(16));
    return groups.join(':');
  }
  const uuid = address.uuid;
  return `${hex(uuid, 0, 4)}-${hex(uuid, 4, 6)}-${hex(uuid, 6, 8)}-${hex(uuid, 8, 10)}-${hex(uuid, 10, 16)}.local`;
}

/** RFC 8445 §5.1.2.1: type preference 126 for host, then the order the sender listed them in, component 1. */
function hostPriority(index: number): number {
  return 126 * 2 ** 24 + (65_535 - index) * 2 ** 8 + 255;
}

function fingerprintText(fingerprint: Uint8Array): string {
  return Array.from(fingerprint, (byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/**
 * A session description Chromium accepts in `setRemoteDescription`, rebuilt from the essentials: every candidate the
 * other phone will ever send is here, so it ends with `a=end-of-candidates`.
 */
export function describeSession(essentials: SessionEssentials): { type: SessionType; sdp: string } {
  const lines = [
    'v=0',
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    ...essentials.candidates.map(
      (candidate, index) =>
        `a=candidate:${index + 1} 1 udp ${hostPriority(index)} ${formatAddress(candidate.address)} ${candidate.port} typ host`,
    ),
    'a=end-of-candidates',
    `a=ice-ufrag:${essentials.iceUfrag}`,
    `a=ice-pwd:${essentials.icePwd}`,
    `a=fingerprint:sha-256 ${fingerprintText(essentials.fingerprint)}`,
    `a=setup:${essentials.setup}`,
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ];
  return { type: essentials.type, sdp: `${lines.join('\r\n')}\r\n` };
}
