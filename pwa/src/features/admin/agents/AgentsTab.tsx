import { type AdminAgent, formatDate, phoneForPeople } from '@filamu/shared';
import { useState } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast, useToastStore } from '../../../lib/toast.ts';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { AgentDialog, type AgentDialogState, ChannelSelect } from './AgentDialog.tsx';
import type { Channel } from './agent-form.ts';
import { useAgents, useDeleteAgent, useResetAgentPassword, useUpdateAgent } from './queries.ts';

/** Product §8: the new password stays on screen for 10 seconds. */
const RESET_TOAST_MS = 10_000;

type Pending = { kind: 'delete' | 'reset'; agent: AdminAgent };

/** Product §2 Agents: create, edit, switch on/off, reset the password of, or delete agent logins. */
export default function AgentsTab() {
  const agents = useAgents();
  const update = useUpdateAgent();
  const remove = useDeleteAgent();
  const reset = useResetAgentPassword();
  const [dialog, setDialog] = useState<AgentDialogState | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);
  const [resetVia, setResetVia] = useState<Channel>('both');

  const toggle = (agent: AdminAgent) => {
    setToggling(agent.id);
    update.mutate(
      { id: agent.id, body: { is_active: !agent.is_active } },
      {
        onSuccess: ({ agent: changed }) =>
          toast.success(
            `Agent ${changed.is_active ? 'activated' : 'deactivated'}`,
            changed.is_active ? `${changed.full_name} can sign in again.` : `${changed.full_name} has been signed out.`,
          ),
        onError: (error) => toast.error(`Failed to update agent status: ${errorMessage(error, 'Please try again.')}`),
        onSettled: () => setToggling(null),
      },
    );
  };

  const confirm = () => {
    if (!pending) return;
    const { agent } = pending;
    if (pending.kind === 'delete') {
      remove.mutate(agent.id, {
        onSuccess: () => toast.success('Agent deleted successfully', `${agent.full_name} can no longer sign in.`),
        onError: (error) => toast.error(`Failed to delete agent: ${errorMessage(error, 'Please try again.')}`),
        onSettled: () => setPending(null),
      });
      return;
    }
    reset.mutate(
      { id: agent.id, body: { send_credentials_via: resetVia } },
      {
        onSuccess: (result) => {
          useToastStore.getState().push({
            title: 'Password Reset',
            description: `New password: ${result.newPassword}`,
            variant: 'success',
            durationMs: RESET_TOAST_MS,
          });
          // Ten seconds is short for copying a password; the dialog keeps it until closed (decision 0056).
          setDialog({
            mode: 'credentials',
            credentials: {
              heading: 'Password reset',
              name: agent.full_name,
              email: agent.email,
              password: result.newPassword,
              whatsappLink: result.whatsappLink,
              emailed: result.credentialsEmailQueued,
              texted: result.credentialsSmsQueued,
            },
          });
        },
        onError: (error) => toast.error(`Failed to reset password: ${errorMessage(error, 'Please try again.')}`),
        onSettled: () => setPending(null),
      },
    );
  };

  const columns: Column<AdminAgent>[] = [
    {
      id: 'name',
      header: 'Name',
      sortValue: (a) => a.full_name,
      cell: (a) => <span className="font-semibold">{a.full_name}</span>,
    },
    {
      id: 'email',
      header: 'Email',
      sortValue: (a) => a.email,
      cell: (a) => <span className="break-all">{a.email}</span>,
    },
    { id: 'phone', header: 'Phone', cell: (a) => <span className="whitespace-nowrap">{phoneForPeople(a.phone)}</span> },
    {
      id: 'created',
      header: 'Created',
      sortValue: (a) => a.created_at,
      cell: (a) => <span className="whitespace-nowrap">{formatDate(a.created_at)}</span>,
    },
    {
      id: 'creator',
      header: 'Created by',
      cell: (a) => <span className="break-all">{a.created_by_email ?? '—'}</span>,
    },
    {
      // The agent's phone as a kiosk (issue 19/22): films people received from it, and who then paid for a plan.
      id: 'sent',
      header: 'Films sent',
      sortValue: (a) => a.films_sent,
      cell: (a) => (
        <span className="whitespace-nowrap tabular-nums">
          {a.films_sent}
          <span className="block text-xs text-stone-600 dark:text-stone-400">
            {a.plans_after === 1 ? '1 plan after' : `${a.plans_after} plans after`}
          </span>
        </span>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      sortValue: (a) => (a.is_active ? 0 : 1),
      cell: (a) => <Badge tone={a.is_active ? 'success' : 'neutral'}>{a.is_active ? 'Active' : 'Inactive'}</Badge>,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (a) => (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            loading={toggling === a.id}
            onClick={() => toggle(a)}
            aria-label={`${a.is_active ? 'Deactivate' : 'Activate'} ${a.full_name}`}
          >
            {a.is_active ? 'Deactivate' : 'Activate'}
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => setDialog({ mode: 'edit', agent: a })}
            aria-label={`Edit ${a.full_name}`}
          >
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              setResetVia(a.phone ? 'both' : 'email');
              setPending({ kind: 'reset', agent: a });
            }}
            aria-label={`Reset password of ${a.full_name}`}
          >
            Reset Password
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => setPending({ kind: 'delete', agent: a })}
            aria-label={`Delete ${a.full_name}`}
          >
            Delete
          </Button>
        </div>
      ),
    },
  ];

  const addButton = (label: string) => <Button onClick={() => setDialog({ mode: 'create' })}>{label}</Button>;
  const list = agents.data?.agents ?? [];

  return (
    <>
      <TabHeading
        title="Agents"
        description="Agent logins get the whole library without a subscription. Passwords are generated and shown once."
        actions={addButton('Add Agent')}
      />
      {agents.isError ? (
        <LoadFailure what="agents" error={agents.error} onRetry={() => void agents.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          rows={list}
          rowKey={(a) => a.id}
          caption="Agents"
          loading={agents.isPending}
          empty={
            <div className="space-y-3">
              <p>No agents yet.</p>
              {addButton('Add Your First Agent')}
            </div>
          }
        />
      )}

      <AgentDialog
        state={dialog}
        onClose={() => setDialog(null)}
        onCreated={(credentials) => setDialog({ mode: 'credentials', credentials })}
      />
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'reset' ? 'Reset password?' : 'Delete agent?'}
        confirmLabel={pending?.kind === 'reset' ? 'Reset Password' : 'Delete'}
        busy={remove.isPending || reset.isPending}
        onConfirm={confirm}
        onClose={() => !(remove.isPending || reset.isPending) && setPending(null)}
      >
        {pending?.kind === 'reset' ? (
          <>
            <p>
              Reset the password of "{pending.agent.full_name}"? Their current password stops working and they are
              signed out everywhere; the new password is shown once.
            </p>
            <ChannelSelect value={resetVia} onChange={setResetVia} />
          </>
        ) : (
          <p>Are you sure you want to delete agent "{pending?.agent.full_name}"? This action cannot be undone.</p>
        )}
      </ConfirmDialog>
    </>
  );
}
