import { describe, expect, it } from 'vitest';
import { returnPath } from './return-path.ts';

describe('returnPath after signing in', () => {
  it('goes back to the in-app page that sent the person to /login, with its query', () => {
    expect(returnPath({ from: '/checkout/success?transaction_id=abc' }, '/dashboard')).toBe(
      '/checkout/success?transaction_id=abc',
    );
    expect(returnPath({ from: '/movies/1' }, '/admin')).toBe('/movies/1');
  });

  it('falls back without a usable origin: none, another site, or /login itself', () => {
    expect(returnPath(null, '/dashboard')).toBe('/dashboard');
    expect(returnPath({ from: 42 }, '/dashboard')).toBe('/dashboard');
    expect(returnPath({ from: 'https://evil.example/' }, '/dashboard')).toBe('/dashboard');
    expect(returnPath({ from: '//evil.example/x' }, '/dashboard')).toBe('/dashboard');
    expect(returnPath({ from: '/login' }, '/admin')).toBe('/admin');
  });
});
