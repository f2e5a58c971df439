import { describeBadInputSweep } from './sweep/bad-input.ts';

// The bad-input sweep (decision 0093) on PGlite; its Postgres half is bad-input-sweep.postgres.test.ts.
describeBadInputSweep('pglite');
