import { isIPv4, isIPv6 } from 'node:net';

/**
 * What a limit keys an address by. One IPv6 subscriber line owns a whole /64 (a phone picks a new address in it at
 * will), so IPv6 is keyed by its /64; IPv4 by the address. `networkOf` is the wider neighbourhood used for aggregate
 * ceilings (an IPv4 /24, an IPv6 /64). Both are linear in the address's length and never throw: anything that is not
 * an address keys as itself, trimmed to a bounded length.
 */
export function addressKey(ip: string): string {
  const v4 = ipv4Of(ip);
  if (v4) return v4;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip.slice(0, 64);
}

export function networkOf(ip: string): string {
  const v4 = ipv4Of(ip);
  if (v4) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip.slice(0, 64);
}

/** IPv4 as itself, or from an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as Node reports dual-stack peers). */
function ipv4Of(ip: string): string | null {
  if (isIPv4(ip)) return ip;
  const lower = ip.toLowerCase();
  if (lower.startsWith('::ffff:') && isIPv4(lower.slice(7))) return lower.slice(7);
  return null;
}

/** The eight groups of an IPv6 address, each as lower-case hex without leading zeros; null if it is not one. */
function ipv6Groups(ip: string): string[] | null {
  const bare = ip.split('%')[0] ?? '';
  if (!isIPv6(bare)) return null;
  const [head = '', tail] = bare.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (`::1.2.3.4`) is two groups.
  const expand = (parts: string[]) =>
    parts.flatMap((part) => {
      if (!part.includes('.')) return [part];
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const l = expand(left);
  const r = expand(right);
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - l.length - r.length }, () => '0');
  return [...l, ...zeros, ...r].map((group) => Number.parseInt(group, 16).toString(16));
}
