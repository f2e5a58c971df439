import { describe, expect, it } from 'vitest';
import { expectConsoleError } from './expect-console.ts';

describe('console output in tests', () => {
  it('passes when the test declared the line it prints', () => {
    expectConsoleError(/payment status check failed/i);
    console.error('Payment status check failed', new Error('offline'));
    expect(true).toBe(true);
  });

  it.fails('fails a test that prints to console.error without declaring it', () => {
    console.error('something went wrong');
  });

  it.fails('fails a test that prints to console.warn without declaring it', () => {
    console.warn('careful');
  });

  it.fails('still fails on a line other than the declared one', () => {
    expectConsoleError(/expected/);
    console.error('unexpected');
  });
});
