import { describe, expect, it } from 'vitest';
import { freeSpace } from './opfs.ts';

describe('freeSpace', () => {
  it('is the quota less the usage', () => {
    expect(freeSpace(1_000, 5_000)).toBe(4_000);
  });

  it('believes no usage above the quota, and no missing or broken figure', () => {
    expect(freeSpace(2 ** 32 - 1024, 2 * 1024 ** 3)).toBeNull();
    expect(freeSpace(0, undefined)).toBeNull();
    expect(freeSpace(0, 0)).toBeNull();
    expect(freeSpace(Number.NaN, 5_000)).toBeNull();
  });
});
