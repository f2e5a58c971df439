import { z } from 'zod';
import { Email, FullName, IsoDateTime, UgandaPhone } from './common.ts';

/**
 * How a new or reset password reaches the agent: `email`, `sms` or `both` (email and SMS); `whatsapp` sends nothing
 * itself. Every choice but `none` also answers the WhatsApp link for the admin to send (decisions 0009, 0151).
 */
export const CredentialsChannel = z.enum(['both', 'sms', 'email', 'whatsapp', 'none']);

export const AdminAgent = z.object({
  id: z.string(),
  full_name: z.string(),
  phone: z.string().nullable(),
  email: z.string(),
  is_active: z.boolean(),
  created_at: IsoDateTime,
  created_by_email: z.string().nullable(),
  /** Films received from this agent's phone as Filamu files, each its receiver's licensed download (issue 19/22). */
  films_sent: z.number().int(),
  /** People who received a film from this agent and paid for a plan afterwards. */
  plans_after: z.number().int(),
});
export type AdminAgent = z.infer<typeof AdminAgent>;

export const AgentList = z.object({ agents: z.array(AdminAgent) });

export const CreateAgentRequest = z.object({
  full_name: FullName,
  phone: UgandaPhone,
  email: Email,
  send_credentials_via: CredentialsChannel.default('both'),
});
export type CreateAgentRequest = z.input<typeof CreateAgentRequest>;

export const CreateAgentResponse = z.object({
  agent: AdminAgent,
  generatedPassword: z.string(),
  whatsappLink: z.string().nullable(),
  credentialsEmailQueued: z.boolean(),
  /** Queued to the agent's phone; the password leaves the outbox once the gateway has it. */
  credentialsSmsQueued: z.boolean(),
});
export type CreateAgentResponse = z.infer<typeof CreateAgentResponse>;

/** Email is the agent's login and stays locked once created; other fields are partial. */
export const UpdateAgentRequest = z
  .object({ full_name: FullName.optional(), phone: UgandaPhone.optional(), is_active: z.boolean().optional() })
  .refine((v) => v.full_name !== undefined || v.phone !== undefined || v.is_active !== undefined, {
    message: 'No changes',
  });
export type UpdateAgentRequest = z.input<typeof UpdateAgentRequest>;

export const UpdateAgentResponse = z.object({ agent: AdminAgent });

/** Without a body (or a channel), nothing is sent: the new password is shown, with the WhatsApp link. */
export const ResetAgentPasswordRequest = z.object({
  send_credentials_via: CredentialsChannel.default('whatsapp'),
});
export type ResetAgentPasswordRequest = z.input<typeof ResetAgentPasswordRequest>;

export const ResetAgentPasswordResponse = z.object({
  newPassword: z.string(),
  whatsappLink: z.string().nullable(),
  credentialsEmailQueued: z.boolean(),
  credentialsSmsQueued: z.boolean(),
});
export type ResetAgentPasswordResponse = z.infer<typeof ResetAgentPasswordResponse>;
