import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';

const BY_REASON: Record<string, string> = {
  signed_in_elsewhere: 'You signed in on another device. Only one device can be signed in at a time.',
  password_changed: 'Your password was changed. Please sign in again.',
  password_reset: 'Your password was reset. Please sign in with the new password.',
  agent_deactivated: 'This agent account has been deactivated.',
  admin_rights_removed: 'This account is no longer an admin. Please sign in again.',
};
const ENDED = 'Your session has ended. Please sign in again.';

/**
 * Why a session no longer works, in words for the person signed out by it: the client shows this on its way
 * to /login, so "signed in on another phone" is never mistaken for a fault. Only read on that failure path.
 */
export async function sessionEndedMessage(exec: Executor, sessionId: string): Promise<string> {
  const [row] = await exec.select({ reason: sessions.revokedReason }).from(sessions).where(eq(sessions.id, sessionId));
  return (row?.reason && BY_REASON[row.reason]) || ENDED;
}
