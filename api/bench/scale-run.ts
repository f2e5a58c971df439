/** `npx pnpm@10 bench:scale`: only the scale bench (scale.ts); `pnpm bench` runs it too when DATABASE_URL is set. */
import { benchScale } from './scale.ts';

if (!process.env.DATABASE_URL) {
  process.stderr.write(
    'bench:scale needs DATABASE_URL=postgres://… (a throwaway database is created on that server).\n',
  );
  process.exit(1);
}
await benchScale(process.env.DATABASE_URL);
