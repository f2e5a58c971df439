import { describe, expect, it } from 'vitest';
import { trimTrailing, trimTrailingSlashes } from './text.ts';

describe('trimTrailing', () => {
  it('removes the run of the character at the end only', () => {
    expect(trimTrailingSlashes('https://cdn.example.com///')).toBe('https://cdn.example.com');
    expect(trimTrailingSlashes('/terms/')).toBe('/terms');
    expect(trimTrailingSlashes('//a')).toBe('//a');
    expect(trimTrailingSlashes('///')).toBe('');
    expect(trimTrailing('1500', '0')).toBe('15');
    expect(trimTrailing('Pay now..', '.')).toBe('Pay now');
    expect(trimTrailing('', '.')).toBe('');
  });
});
