import {
  type AdminAgent,
  CreateAgentRequest,
  type CredentialsChannel,
  Email,
  FullName,
  UgandaPhone,
  type UpdateAgentRequest,
} from '@filamu/shared';
import type { z } from 'zod';

export type AgentField = 'full_name' | 'phone' | 'email';
export type AgentErrors = Partial<Record<AgentField, string>>;
export type Channel = z.infer<typeof CredentialsChannel>;

export interface AgentValues {
  full_name: string;
  phone: string;
  email: string;
  send_credentials_via: Channel;
}

export const AGENT_FIELDS: AgentField[] = ['full_name', 'phone', 'email'];

/** In the order offered; every choice but the last also gives the admin a WhatsApp link (decision 0151). */
export const CHANNEL_LABELS: Record<Channel, string> = {
  both: 'SMS and email',
  sms: 'SMS',
  email: 'Email',
  whatsapp: 'Only the WhatsApp link',
  none: 'Don’t send (I’ll share it myself)',
};

export const CHANNEL_HINT = 'The password is also shown here once, with a WhatsApp link unless you choose Don’t send.';

/** What went out, for the toast: SMS and email first, the WhatsApp link when nothing else did. */
export function sentSummary(result: {
  credentialsEmailQueued: boolean;
  credentialsSmsQueued: boolean;
  whatsappLink: string | null;
}): string | undefined {
  const ways = [result.credentialsSmsQueued && 'SMS', result.credentialsEmailQueued && 'email'].filter(Boolean);
  if (ways.length > 0) return `Credentials sent via ${ways.join(' and ')}.`;
  return result.whatsappLink ? 'WhatsApp link generated.' : undefined;
}

export const emptyAgent = (): AgentValues => ({ full_name: '', phone: '', email: '', send_credentials_via: 'both' });

export const agentValues = (agent: AdminAgent): AgentValues => ({
  full_name: agent.full_name,
  // Shown as stored (256…); the same schema accepts it back unchanged.
  phone: agent.phone ?? '',
  email: agent.email,
  send_credentials_via: 'none',
});

const firstIssue = (schema: z.ZodType, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

/** Product §5 Agent form, with the API's own messages: name, phone and a valid email are required. */
export function validateAgent(values: AgentValues, editing: boolean): AgentErrors {
  const errors: AgentErrors = {
    full_name: firstIssue(FullName, values.full_name),
    phone: firstIssue(UgandaPhone, values.phone),
    // The email is locked when editing; only a new agent's is checked.
    email: editing ? undefined : firstIssue(Email, values.email),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as AgentErrors;
}

export const createBody = (values: AgentValues): z.input<typeof CreateAgentRequest> => ({
  full_name: values.full_name.trim(),
  phone: values.phone.trim(),
  email: values.email.trim(),
  send_credentials_via: values.send_credentials_via,
});

/** Only what changed (the email never does); null when nothing did. */
export function updateBody(agent: AdminAgent, values: AgentValues): UpdateAgentRequest | null {
  const body: UpdateAgentRequest = {};
  if (values.full_name.trim() !== agent.full_name) body.full_name = values.full_name.trim();
  if (values.phone.trim() !== (agent.phone ?? '')) body.phone = values.phone.trim();
  return Object.keys(body).length > 0 ? body : null;
}
