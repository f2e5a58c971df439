import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { clientIp } from '../auth/client-ip.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { deviceCheckSends } from '../rate-limit/limits.ts';
import { listDeviceChecks, recordDeviceCheck } from './checks.ts';
import { senderUserId } from './sender.ts';

const { deviceChecks } = contracts;

export function deviceCheckRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(deviceChecks.sendDeviceCheck, async ({ body }, c) => {
      const db = deps.database.db;
      await hitLimits(db, deps.clock.now(), [
        { limit: deviceCheckSends, subject: clientIp(c, deps.config.trustProxy) },
      ]);
      const id = await recordDeviceCheck(db, {
        request: body,
        userAgent: c.req.header('user-agent'),
        userId: await senderUserId(c, deps),
      });
      return { id, message: 'Sent to Filamu. Thank you: this phone is now in the console’s list.' };
    })
    .on(deviceChecks.listDeviceChecks, ({ query }) => listDeviceChecks(deps.database.db, query));
}
