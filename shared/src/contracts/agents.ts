import { defineContract } from '../contract.ts';
import {
  AgentList,
  CreateAgentRequest,
  CreateAgentResponse,
  ResetAgentPasswordRequest,
  ResetAgentPasswordResponse,
  UpdateAgentRequest,
  UpdateAgentResponse,
} from '../schemas/agents.ts';
import { IdParams, Message } from '../schemas/common.ts';

const tag = 'Agents';

export const listAgents = defineContract({
  method: 'get',
  path: '/agents',
  summary: 'Every agent, newest first',
  tag,
  access: 'admin',
  response: AgentList,
});

export const createAgent = defineContract({
  method: 'post',
  path: '/agents',
  summary: 'Create an agent with a generated password (shown once)',
  tag,
  access: 'admin',
  body: CreateAgentRequest,
  response: CreateAgentResponse,
  status: 201,
});

export const updateAgent = defineContract({
  method: 'put',
  path: '/agents/:id',
  summary: 'Change an agent; deactivating signs it out',
  tag,
  access: 'admin',
  params: IdParams,
  body: UpdateAgentRequest,
  response: UpdateAgentResponse,
});

export const deleteAgent = defineContract({
  method: 'delete',
  path: '/agents/:id',
  summary: 'Delete an agent and end its sessions',
  tag,
  access: 'admin',
  params: IdParams,
  response: Message,
});

export const resetAgentPassword = defineContract({
  method: 'post',
  path: '/agents/:id/reset-password',
  summary: 'Generate a new password (shown once) and end the agent’s sessions',
  tag,
  access: 'admin',
  params: IdParams,
  body: ResetAgentPasswordRequest,
  response: ResetAgentPasswordResponse,
});
