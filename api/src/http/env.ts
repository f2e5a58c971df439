import type { Logger } from 'pino';
import type { Principal } from './principal.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    principal: Principal;
  };
}
