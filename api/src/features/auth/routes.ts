import { contracts, type ProofSolution } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { agentLogin, changePassword, login, logout, register, type RequestContext, updateProfile } from './accounts.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { registrationPerIp } from '../rate-limit/limits.ts';
import { addressKey } from '../../lib/network-prefix.ts';
import { clientIp } from './client-ip.ts';
import { changePhone, requestPhoneChangeCode, requestPhoneProofCode } from './phone-change.ts';
import { agentProfile, userProfile } from './profile.ts';
import { requestRecoveryCode, resetPassword } from './recovery.ts';
import { storedUserAgent } from './user-agent.ts';

const { auth } = contracts;

export function authRoutes(router: ContractRouter, deps: Deps): void {
  const requestContext = (c: Context<AppEnv>, proof?: ProofSolution): RequestContext => {
    const ip = clientIp(c, deps.config.trustProxy);
    return {
      ip,
      deviceId: c.req.header('x-device-id'),
      userAgent: storedUserAgent(c.req.header('user-agent')),
      gate: {
        address: addressKey(ip),
        proof,
        sign: (purpose, data) => deps.tokens.digest(purpose, data),
        count: (budget, step) => deps.metrics.addressCeiling.inc({ budget, step }),
        logger: deps.logger,
      },
    };
  };

  router
    .on(auth.register, async ({ body }, c) => {
      const ctx = requestContext(c);
      const limit = registrationPerIp(deps.config.registrationsPerIpPerHour);
      await hitLimits(deps.database.db, deps.clock.now(), [{ limit, subject: ctx.ip }]);
      return register(deps, body, ctx);
    })
    .on(auth.login, ({ body }, c) => login(deps, body, requestContext(c, body.proof)))
    .on(auth.requestRecoveryCode, ({ body }, c) => requestRecoveryCode(deps, body, requestContext(c)))
    .on(auth.resetPassword, ({ body }, c) => resetPassword(deps, body, requestContext(c, body.proof)))
    .on(auth.agentLogin, ({ body }, c) => agentLogin(deps, body, requestContext(c, body.proof)))
    .on(auth.logout, ({ principal }) => logout(deps, principal))
    .on(auth.profile, async ({ principal }) =>
      userProfile(deps.database.db, principal.user, deps.clock.now(), principal.sessionId),
    )
    .on(auth.agentProfile, async ({ principal }) => agentProfile(principal.agent))
    .on(auth.updateProfile, ({ body, principal }) => updateProfile(deps, principal, body))
    .on(auth.requestPhoneChangeCode, ({ body, principal }, c) =>
      requestPhoneChangeCode(deps, principal, body, requestContext(c).ip),
    )
    .on(auth.requestPhoneProofCode, ({ principal }, c) => requestPhoneProofCode(deps, principal, requestContext(c).ip))
    .on(auth.changePhone, ({ body, principal }) => changePhone(deps, principal, body))
    .on(auth.changePassword, ({ body, principal }) => changePassword(deps, principal, body))
    .on(auth.agentChangePassword, ({ body, principal }) => changePassword(deps, principal, body));
}
