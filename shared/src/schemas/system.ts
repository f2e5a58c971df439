import { z } from 'zod';

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'error']),
});

export const AppMeta = z.object({
  maintenance: z.boolean(),
});
export type AppMeta = z.infer<typeof AppMeta>;
