import type { Context } from 'hono';
import type { Database } from '../../db/client.ts';
import type { AppEnv } from '../../http/env.ts';
import type { Clock } from '../../lib/clock.ts';
import { loadPrincipal } from '../auth/sessions.ts';
import type { TokenService } from '../auth/tokens.ts';

/**
 * The signed-in person sending a device check, if any. The page is public (any phone in a shop, signed out), so no
 * token, a lapsed one or an agent's is not a refusal: the check is simply kept without an account.
 */
export async function senderUserId(
  c: Context<AppEnv>,
  deps: { database: Database; tokens: TokenService; clock: Clock },
): Promise<string | null> {
  const token = /^Bearer ([A-Za-z0-9._-]+)$/.exec(c.req.header('authorization') ?? '')?.[1];
  if (!token) return null;
  const now = deps.clock.now();
  const claims = await deps.tokens.verify(token, now);
  if (!claims) return null;
  const principal = await loadPrincipal(deps.database.db, claims, now);
  return principal?.kind === 'user' ? principal.user.id : null;
}
