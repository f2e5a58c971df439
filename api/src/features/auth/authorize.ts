import type { Access } from '@filamu/shared';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { forbidden, unauthenticated } from '../../http/errors.ts';
import { sessionEndedMessage } from './session-end.ts';
import { loadPrincipal } from './sessions.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';
import type { TokenService } from './tokens.ts';

/**
 * The server-side gate of every route. Missing, malformed, expired or revoked tokens are 401 (the client
 * signs out); a valid session asking for something its kind or role may not do (an agent on a user-only
 * route, a user on an admin route) is 403 and stays signed in.
 */
const AGENT_REFUSED = 'Agent accounts cannot do this. Agents already have full library access.';
const USER_REFUSED = 'This is only available to agent accounts.';

export function createAuthorize(deps: { database: Database; tokens: TokenService; clock: Clock }) {
  return (access: Access): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      if (access === 'public') return next();
      const header = c.req.header('authorization') ?? '';
      const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(header);
      if (!match) throw unauthenticated();
      const now = deps.clock.now();
      const claims = await deps.tokens.verify(match[1]!, now);
      if (!claims) throw unauthenticated('Your session has expired. Please sign in again.');
      const principal = await loadPrincipal(deps.database.db, claims, now);
      if (!principal) throw unauthenticated(await sessionEndedMessage(deps.database.db, claims.sessionId));
      // The device id is informational, but a token presented by another device is not this session.
      const deviceId = c.req.header('x-device-id');
      if (deviceId && deviceId !== principal.deviceId) throw unauthenticated('This session belongs to another device.');

      const allowed =
        access === 'account' ||
        (access === 'user' && principal.kind === 'user') ||
        (access === 'agent' && principal.kind === 'agent') ||
        access === 'admin';
      if (!allowed) throw forbidden(principal.kind === 'agent' ? AGENT_REFUSED : USER_REFUSED);
      if (access === 'admin' && !(principal.kind === 'user' && principal.user.isAdmin)) throw forbidden();
      c.set('principal', principal);
      await next();
    };
}
