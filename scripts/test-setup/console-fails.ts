import { afterEach, beforeEach, vi } from 'vitest';
import { allowedConsoleErrors } from './expect-console.ts';

/**
 * A test that makes something print to console.error or console.warn fails (decision 0189): such output is a bug
 * the assertions did not look for. A test that means to provoke one says so with `expectConsoleError(pattern)`;
 * the message is still printed, so the run's log shows it.
 */
const logged: string[] = [];

function format(args: unknown[]): string {
  return args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' ');
}

beforeEach(() => {
  logged.length = 0;
  allowedConsoleErrors.length = 0;
  for (const method of ['error', 'warn'] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      original(...args);
      const text = format(args);
      if (!allowedConsoleErrors.some((pattern) => pattern.test(text))) logged.push(`console.${method}: ${text}`);
    });
  }
});

afterEach(() => {
  const unexpected = logged.splice(0);
  allowedConsoleErrors.length = 0;
  if (unexpected.length > 0) {
    throw new Error(`The test printed to the console unexpectedly:\n${unexpected.join('\n')}`);
  }
});
