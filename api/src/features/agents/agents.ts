import type {
  AdminAgent,
  CreateAgentRequest,
  CreateAgentResponse,
  CredentialsChannel,
  ResetAgentPasswordRequest,
  UpdateAgentRequest,
} from '@filamu/shared';
import { desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUniqueViolation, type Executor, type Database } from '../../db/client.ts';
import { agents, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';
import type { UserRow } from '../../http/principal.ts';
import { revokeSessions } from '../auth/sessions.ts';
import { queueSms } from '../sms/outbox.ts';
import { agentCredentialsText } from '../sms/texts.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Mailer } from '../mail/mailer.ts';

interface AgentDeps {
  config: Config;
  database: Database;
  clock: Clock;
  mailer: Mailer;
}

const agentColumns = {
  id: agents.id,
  fullName: agents.fullName,
  phone: agents.phone,
  email: agents.email,
  isActive: agents.isActive,
  createdAt: agents.createdAt,
  createdByEmail: users.email,
  // What the agent's phone did as a kiosk (decision 0246): films others received from it, and who paid after one.
  filmsSent: sql<number>`(select count(*) from downloads d where d.received_from_agent_id = ${agents.id})`.mapWith(
    Number,
  ),
  // A film that waited on the receiver's phone for a plan counts from when it waited: the plan came after it.
  plansAfter: sql<number>`(select count(distinct came.user_id) from (
      select d.user_id, d.created_at as at from downloads d
        where d.received_from_agent_id = ${agents.id} and d.user_id is not null
      union all
      select w.user_id, w.waiting_since from received_films_waiting w where w.from_agent_id = ${agents.id}
    ) came
    where exists (select 1 from payments p
                   where p.user_id = came.user_id and p.status = 'completed' and p.completed_at > came.at))`.mapWith(
    Number,
  ),
};

type AgentListRow = {
  id: string;
  fullName: string;
  phone: string | null;
  email: string;
  isActive: boolean;
  createdAt: Date;
  createdByEmail: string | null;
  filmsSent: number;
  plansAfter: number;
};

const toAdminAgent = (row: AgentListRow): AdminAgent => ({
  id: row.id,
  full_name: row.fullName,
  phone: row.phone,
  email: row.email,
  is_active: row.isActive,
  created_at: row.createdAt.toISOString(),
  created_by_email: row.createdByEmail,
  films_sent: row.filmsSent,
  plans_after: row.plansAfter,
});

async function findAgent(exec: Executor, id: string): Promise<AdminAgent> {
  const [row] = await exec
    .select(agentColumns)
    .from(agents)
    .leftJoin(users, eq(users.id, agents.createdBy))
    .where(eq(agents.id, id));
  if (!row) throw notFound('Agent');
  return toAdminAgent(row);
}

function duplicateAgentError(error: unknown) {
  if (isUniqueViolation(error, 'agents_email_unique')) return conflict('An agent with this email already exists.');
  if (isUniqueViolation(error, 'agents_phone_unique'))
    return conflict('An agent with this phone number already exists.');
  return null;
}

/**
 * The email body and WhatsApp text with an agent's password. A reset says it is a reset (the old password stopped
 * working) rather than welcoming the agent to an account they already have.
 */
function credentialsText(name: string, email: string, password: string, loginUrl: string, reset = false): string {
  const opening = reset
    ? `Hello ${name}, an admin has reset your Filamu agent password. Your old password no longer works.`
    : `Hello ${name}, your Filamu agent account is ready.`;
  const secret = reset ? 'New password' : 'Password';
  return `${opening}\nSign in at ${loginUrl} (choose Agent login)\nEmail: ${email}\n${secret}: ${password}\nPlease keep these details private.`;
}

const whatsappLink = (phone: string, text: string) => `https://wa.me/${phone}?text=${encodeURIComponent(text)}`;

export async function listAgents(deps: AgentDeps): Promise<{ agents: AdminAgent[] }> {
  const rows = await deps.database.db
    .select(agentColumns)
    .from(agents)
    .leftJoin(users, eq(users.id, agents.createdBy))
    .orderBy(desc(agents.createdAt));
  return { agents: rows.map(toAdminAgent) };
}

/**
 * Sends a new or reset password the ways the admin chose, in the transaction that set it (decision 0151): email and
 * SMS are queued in their outboxes, which drop the password once it has gone; the WhatsApp link is for the admin.
 * With the SMS dispatcher off nothing would send the text, so it is not queued (the admin was shown the password).
 */
async function sendCredentials(
  deps: AgentDeps,
  tx: Executor,
  agent: { name: string; email: string; phone: string | null },
  password: string,
  via: z.output<typeof CredentialsChannel>,
  loginUrl: string,
  reset: boolean,
) {
  const now = deps.clock.now();
  const text = credentialsText(agent.name, agent.email, password, loginUrl, reset);
  const emailed = via === 'email' || via === 'both';
  const texted = (via === 'sms' || via === 'both') && agent.phone !== null && deps.config.sms.dispatchIntervalMs > 0;
  if (emailed) {
    await deps.mailer.queue(tx, {
      to: agent.email,
      subject: reset ? 'Your new Filamu agent password' : 'Your Filamu agent account',
      body: text,
      kind: 'agent_credentials',
      secret: password,
    });
  }
  if (texted) {
    await queueSms(tx, now, {
      to: agent.phone!,
      text: agentCredentialsText({ email: agent.email, password, loginUrl, reset }),
      purpose: 'agent_credentials',
    });
  }
  return {
    whatsappLink: via !== 'none' && agent.phone ? whatsappLink(agent.phone, text) : null,
    credentialsEmailQueued: emailed,
    credentialsSmsQueued: texted,
  };
}

export async function createAgent(
  deps: AgentDeps,
  admin: UserRow,
  input: z.output<typeof CreateAgentRequest>,
  loginUrl: string,
): Promise<CreateAgentResponse> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  try {
    return await deps.database.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(agents)
        .values({
          fullName: input.full_name,
          email: input.email,
          phone: input.phone,
          passwordHash,
          createdBy: admin.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: agents.id });
      const agent = { name: input.full_name, email: input.email, phone: input.phone };
      const sent = await sendCredentials(deps, tx, agent, password, input.send_credentials_via, loginUrl, false);
      return { agent: await findAgent(tx, row!.id), generatedPassword: password, ...sent };
    });
  } catch (error) {
    throw duplicateAgentError(error) ?? error;
  }
}

export async function updateAgent(
  deps: AgentDeps,
  id: string,
  input: z.output<typeof UpdateAgentRequest>,
): Promise<{ agent: AdminAgent }> {
  const now = deps.clock.now();
  try {
    return await deps.database.db.transaction(async (tx) => {
      const [row] = await tx
        .update(agents)
        .set({
          ...(input.full_name !== undefined && { fullName: input.full_name }),
          ...(input.phone !== undefined && { phone: input.phone }),
          ...(input.is_active !== undefined && { isActive: input.is_active }),
          updatedAt: now,
        })
        .where(eq(agents.id, id))
        .returning({ id: agents.id });
      if (!row) throw notFound('Agent');
      if (input.is_active === false) await revokeSessions(tx, { kind: 'agent', id }, now, 'agent_deactivated');
      return { agent: await findAgent(tx, id) };
    });
  } catch (error) {
    throw duplicateAgentError(error) ?? error;
  }
}

export async function deleteAgent(deps: AgentDeps, id: string): Promise<{ message: string }> {
  // Sessions go with the agent (ON DELETE CASCADE), so its token stops working at once.
  const [row] = await deps.database.db.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id });
  if (!row) throw notFound('Agent');
  return { message: 'Agent deleted successfully.' };
}

export async function resetAgentPassword(
  deps: AgentDeps,
  id: string,
  input: z.output<typeof ResetAgentPasswordRequest>,
  loginUrl: string,
) {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const [row] = await tx.update(agents).set({ passwordHash, updatedAt: now }).where(eq(agents.id, id)).returning();
    if (!row) throw notFound('Agent');
    await revokeSessions(tx, { kind: 'agent', id }, now, 'password_reset');
    const agent = { name: row.fullName, email: row.email, phone: row.phone };
    const sent = await sendCredentials(deps, tx, agent, password, input.send_credentials_via, loginUrl, true);
    return { newPassword: password, ...sent };
  });
}
