import { describeBadInputSweep } from './sweep/bad-input.ts';

// The bad-input sweep (decision 0093) on Postgres, when DATABASE_URL names one; its PGlite half is
// bad-input-sweep.pglite.test.ts.
describeBadInputSweep('postgres');
