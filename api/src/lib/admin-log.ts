import type { Logger } from 'pino';

/** Whom an admin action was about: an account, an agent, a payment or a message, by id (never an email or phone). */
export type AdminActionTarget =
  | { userId: string }
  | { agentId: string }
  | { paymentId: string }
  | { messageId: string; channel: string }
  | { movieId: string };

/**
 * Runs an admin's action on a person and, once it has succeeded (the target may come from its result: a new agent's id), says in the log which admin did what to whom:
 * a password reset, a grant or a deletion can then be traced to the admin who made it (issue 15/22, decision 0207).
 * Only ids are logged, with the action's own choice (`detail`) when it has one; never a password or a code.
 */
export async function loggedAdminAction<T>(
  logger: Logger,
  adminId: string,
  action: string,
  target: AdminActionTarget | ((result: T) => AdminActionTarget),
  run: () => Promise<T>,
  detail?: string,
): Promise<T> {
  const result = await run();
  const whom = typeof target === 'function' ? target(result) : target;
  logger.info({ adminId, action, ...whom, ...(detail !== undefined && { detail }) }, 'admin action');
  return result;
}
