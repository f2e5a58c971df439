import {
  contracts,
  type CreateAgentRequest,
  type ResetAgentPasswordRequest,
  type UpdateAgentRequest,
} from '@filamu/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-client.ts';

export function useAgents() {
  return useQuery({
    queryKey: queryKeys.adminAgents,
    queryFn: ({ signal }) => api(contracts.agents.listAgents, {}, { signal }),
  });
}

function useInvalidateAgents() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.adminAgents });
}

export function useCreateAgent() {
  const onSuccess = useInvalidateAgents();
  return useMutation({
    mutationFn: (body: CreateAgentRequest) => api(contracts.agents.createAgent, { body }),
    onSuccess,
  });
}

export function useUpdateAgent() {
  const onSuccess = useInvalidateAgents();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateAgentRequest }) =>
      api(contracts.agents.updateAgent, { params: { id }, body }),
    onSuccess,
  });
}

export function useDeleteAgent() {
  const onSuccess = useInvalidateAgents();
  return useMutation({
    mutationFn: (id: string) => api(contracts.agents.deleteAgent, { params: { id } }),
    onSuccess,
  });
}

export function useResetAgentPassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ResetAgentPasswordRequest }) =>
      api(contracts.agents.resetAgentPassword, { params: { id }, body }),
  });
}
