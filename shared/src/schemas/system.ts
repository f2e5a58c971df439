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

/** How this server runs, for the admin console only. */
export const AdminSystemStatus = z.object({
  /** Payments go to the built-in DPO sandbox (ALLOW_PAYMENT_SANDBOX): every charge is simulated, no money moves. */
  paymentsSandbox: z.boolean(),
  /**
   * ffmpeg/ffprobe found at start: renditions and posters are made. When false, `transcoderMessage` says why and the
   * server offers originals only.
   */
  transcoder: z.object({ available: z.boolean(), message: z.string().nullable() }),
});
export type AdminSystemStatus = z.infer<typeof AdminSystemStatus>;

/** One text message the built-in SMS simulator received (simulator mode only; decision 0147). */
export const SimulatedSms = z.object({
  messageId: z.string(),
  /** As the gateway was given it: +256… */
  to: z.string(),
  text: z.string(),
  parts: z.number().int(),
  receivedAt: z.string(),
  /** Sent, then Success or Failed once the simulated delivery report went out. */
  status: z.string(),
});
export type SimulatedSms = z.infer<typeof SimulatedSms>;

export const SimulatedSmsQuery = z.object({ to: z.string().trim().max(32).optional() });
export const SimulatedSmsList = z.object({ messages: z.array(SimulatedSms) });
export type SimulatedSmsList = z.infer<typeof SimulatedSmsList>;
