/**
 * Before/after photographs of a plan card for a plan ending in about 12 hours (issue 22): the built app of a
 * checkout, one plan, one customer, the card at 390 px in light and dark. Build first, then from the repository root:
 *
 *   npx --yes pnpm@10 --filter ./api exec node --import tsx ../scripts/plan-card-shots.ts <outDir> [--root <checkout>]
 *
 * `--root` photographs another checkout's build (e.g. the commit before, in a worktree of its own).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchBrowser, useServer } from '../e2e/support/browser.ts';
import { createSellablePlan, registerUser, signInContext } from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

const HOUR = 3_600_000;
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(process.env.INIT_CWD ?? process.cwd(), args[rootAt + 1]!) : undefined;
const outArg = args.find((arg, i) => !arg.startsWith('--') && (rootAt < 0 || i !== rootAt + 1));
if (!outArg) throw new Error('usage: plan-card-shots.ts <outDir> [--root <checkout>]');
const outDir = resolve(process.env.INIT_CWD ?? process.cwd(), outArg);
mkdirSync(outDir, { recursive: true });

const server = await startBuiltServer(root);
useServer(server);
const browser = await launchBrowser();
try {
  // A tall page, so the bottom navigation bar does not lie over the card. 12 hours and a half from now, Kampala wall time, as the admin types it.
  const ends = new Date(Date.now() + 12.5 * HOUR + 3 * HOUR).toISOString().slice(0, 16);
  const plan = await createSellablePlan({
    plan_name: 'Weekly',
    price_ugx: 5000,
    description: 'A week of movies.',
    features: ['HD downloads', 'All Kinayuganda movies', 'All English movies'],
    global_expiry_date: ends,
  });
  const user = await registerUser();
  for (const theme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: 390, height: 1600 },
      deviceScaleFactor: 1,
    });
    await signInContext(context, user, theme);
    const page = await context.newPage();
    await page.goto('/subscription');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: plan.plan_name }) });
    await card.getByRole('button').first().waitFor();
    await card.screenshot({ path: join(outDir, `plan-card-12-hours-${theme}.png`), animations: 'disabled' });
    await context.close();
  }
  console.log(`plan-card-shots: written to ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
