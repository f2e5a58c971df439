import { describe, expect, it } from 'vitest';
import { readDataPrice } from './data-price.ts';

describe('readDataPrice', () => {
  it('reads a price typed with or without thousands commas', () => {
    expect(readDataPrice(' 15,000 ')).toEqual({ price: 15_000 });
    expect(readDataPrice('15000')).toEqual({ price: 15_000 });
  });

  it('says what is wrong with an empty or unreadable price, as the server would', () => {
    expect(readDataPrice('').error).toEqual(expect.any(String));
    expect(readDataPrice('cheap').error).toEqual(expect.any(String));
  });
});
