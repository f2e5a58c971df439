import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';

/** What the metrics registry and its scrape-time collectors read from the app. */
export interface MetricsParts {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  /**
   * How long a download may be silent before the stale sweep pauses it (downloads/stale.ts): that job's lag counts
   * from there. Handed in by the wiring, so metrics imports no product feature.
   */
  staleAfterMs: number;
}
