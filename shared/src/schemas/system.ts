import { z } from 'zod';

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'error']),
});

/** The process is up and serving. */
export const Liveness = z.object({ status: z.literal('ok') });

/** Whether this replica should get traffic: its database answers and it is not shutting down (503 otherwise). */
export const Readiness = z.object({
  status: z.enum(['ready', 'unready']),
  db: z.enum(['ok', 'error', 'skipped']),
  shuttingDown: z.boolean(),
});

export const AppMeta = z.object({
  maintenance: z.boolean(),
});
export type AppMeta = z.infer<typeof AppMeta>;
