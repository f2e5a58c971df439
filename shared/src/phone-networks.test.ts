import { describe, expect, it } from 'vitest';
import { paymentNumberProblem } from './mobile-money.ts';
import { networkOfNumber, networkWhileTyping, PHONE_INPUT_MAX, ugandaNationalNumber } from './phone-networks.ts';
import { ChargeMobileRequest } from './schemas/payments.ts';

/** Every range of the table, one real-shaped number each (the last six digits do not matter). */
const RANGES: Array<[string, 'mtn' | 'airtel' | null, string]> = [
  ['0761', 'mtn', 'MTN'],
  ['0772', 'mtn', 'MTN'],
  ['0782', 'mtn', 'MTN'],
  ['0790', 'mtn', 'MTN'],
  ['0791', 'mtn', 'MTN'],
  ['0792', 'mtn', 'MTN'],
  ['0793', 'mtn', 'MTN'],
  ['0794', 'mtn', 'MTN'],
  ['0724', 'mtn', 'MTN'],
  ['0737', 'mtn', 'MTN'],
  ['0701', 'airtel', 'Airtel'],
  ['0744', 'airtel', 'Airtel'],
  ['0752', 'airtel', 'Airtel'],
  ['0730', 'airtel', 'Airtel'],
  ['0731', 'airtel', 'Airtel'],
  ['0795', 'airtel', 'Airtel'],
  ['0712', null, 'UTL'],
  ['0720', null, 'Smile'],
  ['0721', null, 'Lycamobile'],
  ['0726', null, 'Lycamobile'],
  ['0727', null, 'Lycamobile'],
  ['0728', null, 'Talkio'],
  ['0736', null, 'Hamilton Telecom'],
  ['0798', null, 'Africell (closed)'],
  ['0799', null, 'Africell (closed)'],
];

describe('the network of a Uganda number', () => {
  it.each(RANGES)('%s… is %s (%s)', (start, network, holder) => {
    const local = `${start}123456`;
    const canonical = `256${local.slice(1)}`;
    expect(networkOfNumber(local)).toEqual({ canonical, network, holder });
  });

  it('lets the longer range win: 07240… is Hamilton Telecom inside MTN’s 0724, 07210… Savanna inside 0721', () => {
    expect(networkOfNumber('0724012345')).toMatchObject({ network: null, holder: 'Hamilton Telecom' });
    expect(networkOfNumber('0724112345')).toMatchObject({ network: 'mtn', holder: 'MTN' });
    expect(networkOfNumber('0721012345')).toMatchObject({ network: null, holder: 'Savanna' });
  });

  it.each(['0722123456', '0733123456', '0796123456', '0797123456'])('knows no holder for unallocated %s', (n) => {
    expect(networkOfNumber(n)).toEqual({ canonical: `256${n.slice(1)}`, network: null, holder: null });
  });

  it.each([
    ['0752123456', '256752123456'],
    ['0752 123 456', '256752123456'],
    ['256752123456', '256752123456'],
    ['+256752123456', '256752123456'],
    ['+256 752 123 456', '256752123456'],
    ['(+256) 752-123-456', '256752123456'],
    ['  0752.123.456  ', '256752123456'],
  ])('reads the spelling %j', (raw, canonical) => {
    expect(networkOfNumber(raw)).toEqual({ canonical, network: 'airtel', holder: 'Airtel' });
  });

  it.each([
    '',
    '   ',
    'abc',
    '075212345',
    '07521234567',
    '752123456',
    '00256752123456',
    '254752123456',
    '+1 202 555 0100',
    '0412123456',
    '0312123456',
    '0393123456',
  ])('finds no MTN or Airtel number in %j', (raw) => {
    expect(networkOfNumber(raw).network).toBeNull();
  });

  it('refuses fixed lines (MTN 031/039, UTL 041) as mobile-money numbers even though they are Ugandan', () => {
    expect(networkOfNumber('0312123456')).toMatchObject({ network: null, holder: null });
    expect(networkOfNumber('0393123456')).toMatchObject({ network: null, holder: null });
  });

  it('reads nothing longer than the bound, however it is made, and does so at once', () => {
    expect(ugandaNationalNumber(`0752123456${' '.repeat(PHONE_INPUT_MAX - 10)}`)).toBe('752123456');
    expect(ugandaNationalNumber(`0752123456${' '.repeat(PHONE_INPUT_MAX - 9)}`)).toBeNull();
    const huge = '0'.repeat(1_000_000);
    expect(networkOfNumber(huge)).toEqual({ canonical: null, network: null, holder: null });
    expect(networkWhileTyping(huge)).toBeNull();
  });
});

describe('the network while a number is typed', () => {
  it.each([
    ['07', null],
    ['075', 'airtel'],
    ['0752 1', 'airtel'],
    ['+256 77', 'mtn'],
    ['071', null],
    ['072', null],
    ['0724', null],
    ['07241', 'mtn'],
    ['0726', null],
  ] as const)('%j → %s', (typed, network) => {
    expect(networkWhileTyping(typed)?.network ?? null).toBe(network);
  });

  it('names the holder of a range neither network serves as soon as it is known', () => {
    expect(networkWhileTyping('071')).toEqual({ network: null, holder: 'UTL' });
    expect(networkWhileTyping('0726')).toEqual({ network: null, holder: 'Lycamobile' });
  });
});

describe('a number for a mobile-money payment', () => {
  it('passes a number of the chosen network', () => {
    expect(paymentNumberProblem('0772 123 456', 'MTNmobilemoney')).toBeNull();
    expect(paymentNumberProblem('+256 752 123 456', 'Mobile_Airtel_UG')).toBeNull();
  });

  it('names the right method for a number of the other network', () => {
    expect(paymentNumberProblem('0752123456', 'MTNmobilemoney')).toEqual({
      kind: 'wrong_network',
      network: 'Mobile_Airtel_UG',
      message: '0752 123 456 is an Airtel number. Pay with Airtel Money, or use an MTN number like 0772 123 456.',
    });
    expect(paymentNumberProblem('0772123456', 'Mobile_Airtel_UG')).toMatchObject({
      kind: 'wrong_network',
      network: 'MTNmobilemoney',
      message: '0772 123 456 is an MTN number. Pay with MTN Mobile Money, or use an Airtel number like 0752 123 456.',
    });
  });

  it('refuses a number neither network serves, with real examples', () => {
    expect(paymentNumberProblem('0712345678', 'MTNmobilemoney')).toEqual({
      kind: 'unserved',
      message:
        '0712 345 678 is not an MTN or Airtel number. Pay from an MTN number like 0772 123 456 or an Airtel number like 0752 123 456.',
    });
  });

  it('asks for a number when there is none, and for a Uganda number when it is not one', () => {
    expect(paymentNumberProblem(' ', 'MTNmobilemoney')?.kind).toBe('required');
    expect(paymentNumberProblem('12345', 'MTNmobilemoney')?.message).toBe(
      'Enter a Uganda phone number: an MTN number like 0772 123 456 or an Airtel number like 0752 123 456.',
    );
  });

  it('is what the charge contract accepts: MTN and Airtel numbers as 256…, anything else refused', () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const parse = (phoneNumber: string) =>
      ChargeMobileRequest.safeParse({ transaction_id: id, phoneNumber, mno: 'MTNmobilemoney' });
    expect(parse('0772 123 456').data?.phoneNumber).toBe('256772123456');
    // The network check against `mno` is the route's (its own error code): the contract keeps the number.
    expect(parse('0752 123 456').data?.phoneNumber).toBe('256752123456');
    expect(parse('0712345678').error?.issues[0]?.message).toContain('is not an MTN or Airtel number');
    expect(parse('0'.repeat(33)).error?.issues[0]?.message).toBe('Phone number is too long.');
  });
});
