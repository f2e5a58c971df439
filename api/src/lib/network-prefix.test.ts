import { describe, expect, it } from 'vitest';
import { addressKey, networkOf } from './network-prefix.ts';

describe('addressKey', () => {
  it('keys IPv4 by the address and an IPv4-mapped IPv6 peer by its IPv4', () => {
    expect(addressKey('41.210.1.7')).toBe('41.210.1.7');
    expect(addressKey('::ffff:41.210.1.7')).toBe('41.210.1.7');
  });

  it('keys every address of one IPv6 /64 the same, and another /64 differently', () => {
    const a = addressKey('2c0f:fe38:2040:1a2b:1111:2222:3333:4444');
    expect(addressKey('2c0f:fe38:2040:1a2b::9')).toBe(a);
    expect(addressKey('2C0F:FE38:2040:1A2B:abcd::1%eth0')).toBe(a);
    expect(a).toBe('2c0f:fe38:2040:1a2b::/64');
    expect(addressKey('2c0f:fe38:2040:1a2c::9')).not.toBe(a);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keys what is not an address as itself, bounded', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('x'.repeat(10_000))).toHaveLength(64);
  });
});

describe('networkOf', () => {
  it('groups IPv4 by /24 and IPv6 by /64', () => {
    expect(networkOf('41.210.1.7')).toBe('41.210.1.0/24');
    expect(networkOf('41.210.1.250')).toBe(networkOf('::ffff:41.210.1.9'));
    expect(networkOf('41.210.2.7')).not.toBe(networkOf('41.210.1.7'));
    expect(networkOf('2c0f:fe38:2040:1a2b::1')).toBe('2c0f:fe38:2040:1a2b::/64');
  });
});
