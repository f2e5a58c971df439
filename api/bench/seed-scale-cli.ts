/**
 * `npx pnpm@10 seed:scale [-- --force]`: seeds the Postgres database at DATABASE_URL with the scale data set
 * (seed-scale.ts). Refuses without DATABASE_URL, and refuses a database with users or movies unless --force.
 */
import { SCALE, SEED_PASSWORD, seedEmail, seedScale } from './seed-scale.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write(
    'seed:scale needs DATABASE_URL=postgres://… (a database of its own; it is filled with test data).\n',
  );
  process.exit(1);
}
try {
  process.stdout.write(
    `Seeding ${SCALE.movies} movies and ${SCALE.users} users into ${new URL(url).pathname.slice(1)}…\n`,
  );
  const { seconds, counts } = await seedScale(url, { force: process.argv.includes('--force') });
  for (const [table, n] of Object.entries(counts))
    process.stdout.write(`  ${table.padEnd(20)} ${n.toLocaleString('en')}\n`);
  process.stdout.write(
    `Done in ${seconds.toFixed(1)} s. Every seeded user signs in with the password "${SEED_PASSWORD}"\n`,
  );
  process.stdout.write(`(e.g. ${seedEmail(1)}; users whose number mod 20 is 0–10 are subscribed now, 11–14 lapsed).\n`);
} catch (error) {
  process.stderr.write(`seed:scale failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
