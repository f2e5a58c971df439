import { describe, expect, it } from 'vitest';
import { canonicalUgandaPhone, displayUgandaPhone, isValidUgandaPhone, phoneForPeople } from './phone.ts';

describe('Uganda phone numbers', () => {
  it.each([
    ['0772123456', '256772123456'],
    ['256772123456', '256772123456'],
    ['+256 772 123 456', '256772123456'],
    ['+256-772-123-456', '256772123456'],
    ['0701234567', '256701234567'],
    ['0201234567', '256201234567'],
  ])('canonicalises %s to %s', (input, canonical) => {
    expect(canonicalUgandaPhone(input)).toBe(canonical);
  });

  it.each(['', '12345', '0612345678', '07721234567', '256812345678', '+1 202 555 0100', '0772 12345'])(
    'rejects %j',
    (input) => {
      expect(canonicalUgandaPhone(input)).toBeNull();
      expect(isValidUgandaPhone(input)).toBe(false);
    },
  );

  it('displays the canonical form in local spelling', () => {
    expect(displayUgandaPhone('256772123456')).toBe('0772 123 456');
  });
});

describe('phoneForPeople', () => {
  it('writes a stored number as people do, and a dash for none', () => {
    expect(phoneForPeople('256752345675')).toBe('0752 345 675');
    expect(phoneForPeople(null)).toBe('—');
    expect(phoneForPeople('not a number')).toBe('not a number');
  });
});
