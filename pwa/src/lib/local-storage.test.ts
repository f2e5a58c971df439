import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLocal, writeLocal } from './local-storage.ts';

describe('local storage that may refuse', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('saves, reads and forgets a value', () => {
    const saved = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => saved.get(key) ?? null,
      setItem: (key: string, value: string) => saved.set(key, value),
      removeItem: (key: string) => saved.delete(key),
    });
    writeLocal('k', 'v');
    expect(readLocal('k')).toBe('v');
    writeLocal('k', null);
    expect(readLocal('k')).toBeNull();
  });

  it('reads nothing and keeps nothing when the phone refuses, without throwing', () => {
    const refuse = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    vi.stubGlobal('localStorage', { getItem: refuse, setItem: refuse, removeItem: refuse });
    expect(() => writeLocal('k', 'v')).not.toThrow();
    expect(readLocal('k')).toBeNull();
  });
});
