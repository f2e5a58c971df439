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
}
