/** Patterns the running test has declared it expects on console.error/console.warn (reset before each test). */
export const allowedConsoleErrors: RegExp[] = [];

/**
 * Declares that the running test is expected to print a matching line to console.error or console.warn (a test of
 * an error path that logs on purpose); anything else printed still fails the test.
 */
export function expectConsoleError(pattern: RegExp): void {
  allowedConsoleErrors.push(pattern);
}
