import type { ParentalHides } from '@filamu/shared';
import type { agents, users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type AgentRow = typeof agents.$inferSelect;

/** Who is calling, established from a live session row on every request. */
export type Principal =
  | {
      kind: 'user';
      sessionId: string;
      deviceId: string;
      user: UserRow;
      /** The person's parental PIN setting and this session's unlock, read with the session (null: no PIN set). */
      parental: { hides: ParentalHides; unlockedUntil: Date | null } | null;
    }
  | { kind: 'agent'; sessionId: string; deviceId: string; agent: AgentRow };
