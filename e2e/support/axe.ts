import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue, Result } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');
let axeSource: string | null = null;

/** Impacts that fail a page by default. */
export const BLOCKING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

/**
 * Runs axe-core in the page and returns the violations at the given impacts. The script comes from node_modules
 * and is evaluated through the debugging protocol: the app's CSP (`script-src 'self'`) refuses an injected
 * <script> tag. Wait for the screen to settle first: axe checks what is in the DOM now.
 */
export async function axeViolations(page: Page, impacts: readonly ImpactValue[] = BLOCKING_IMPACTS): Promise<Result[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) {
    axeSource ??= readFileSync(AXE_SCRIPT, 'utf8');
    await page.evaluate(axeSource);
  }
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } })
      .axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations.filter((violation) => violation.impact && impacts.includes(violation.impact));
}

/** One line per violation and offending element, for assertion messages. */
export function describeViolations(violations: Result[]): string {
  return violations
    .flatMap((v) =>
      v.nodes.map(
        (node) => `${v.impact} ${v.id}: ${v.help} — ${node.target.join(' ')}\n    ${node.failureSummary ?? ''}`,
      ),
    )
    .join('\n');
}

/** Throws with a readable list when the page has serious or critical violations. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) {
    throw new Error(`${label}: ${violations.length} accessibility violation(s)\n${describeViolations(violations)}`);
  }
}
