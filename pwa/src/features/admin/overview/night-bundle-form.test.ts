import { describe, expect, it } from 'vitest';
import { readNightBundle, takesEffectText } from './night-bundle-form.ts';

describe('the night bundle hours as typed in the console', () => {
  it('reads a price with commas and times written loosely', () => {
    expect(
      readNightBundle({
        price: ' 2,500 ',
        windows: [
          { start: '0:00', end: '0600' },
          { start: '22.30', end: '23:59' },
        ],
      }),
    ).toEqual({
      setting: {
        nightPricePerGbUgx: 2500,
        windows: [
          { start: '00:00', end: '06:00' },
          { start: '22:30', end: '23:59' },
        ],
      },
    });
  });

  it('says what is wrong beside the field it is about', () => {
    expect(
      readNightBundle({
        price: '50',
        windows: [
          { start: '25:00', end: '06:00' },
          { start: '05:00', end: '05:00' },
        ],
      }).errors,
    ).toEqual({
      price: 'The price of 1 GB at night must be at least UGX 100.',
      'windows.0.start': 'Write the time as HH:MM, from 00:00 to 23:59, Kampala time.',
      'windows.1': 'A night window must end at another time than it starts.',
    });
    expect(
      readNightBundle({
        price: '',
        windows: [
          { start: '22:00', end: '02:00' },
          { start: '01:00', end: '03:00' },
        ],
      }).errors,
    ).toEqual({
      price: 'Enter the price of 1 GB of night data in UGX.',
      'windows.1': 'Night windows must not overlap.',
    });
    expect(readNightBundle({ price: '2000', windows: [] }).errors).toEqual({
      windows: 'Set at least one night window.',
    });
  });

  it('words when a waiting change takes effect in Kampala time', () => {
    expect(takesEffectText('2026-11-30T03:00:00.000Z')).toBe('06:00 on 2026-11-30');
  });
});
