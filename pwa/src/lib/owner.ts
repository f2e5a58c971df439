import { useSessionStore } from './session.ts';

/** The person whose downloads and watch positions this device shows: user and agent ids live in different tables. */
export function currentOwnerId(): string | null {
  const { user, agent, kind } = useSessionStore.getState();
  if (kind === 'agent' && agent) return `agent:${agent.id}`;
  if (kind === 'user' && user) return `user:${user.id}`;
  return null;
}
