import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { TokenService } from './features/auth/tokens.ts';
import type { Mailer } from './features/mail/mailer.ts';
import type { Clock } from './lib/clock.ts';

/** Everything with a side effect that the app uses, built once in server.ts (or by a test). */
export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  mailer: Mailer;
}
