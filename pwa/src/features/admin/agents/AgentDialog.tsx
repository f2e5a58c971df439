import type { AdminAgent } from '@filamu/shared';
import type { FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { isApiError } from '../../../lib/api.ts';
import { fieldIssues, useFormFields } from '../../../lib/form.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { SelectField } from '../components/SelectField.tsx';
import {
  AGENT_FIELDS,
  type AgentValues,
  CHANNEL_HINT,
  CHANNEL_LABELS,
  type Channel,
  agentValues,
  createBody,
  emptyAgent,
  sentSummary,
  updateBody,
  validateAgent,
} from './agent-form.ts';
import { CredentialsPanel, type ShownCredentials } from './CredentialsPanel.tsx';
import { useCreateAgent, useUpdateAgent } from './queries.ts';

export type AgentDialogState =
  { mode: 'create' } | { mode: 'edit'; agent: AdminAgent } | { mode: 'credentials'; credentials: ShownCredentials };

const TITLES = { create: 'Add Agent', edit: 'Edit Agent', credentials: 'Agent Credentials' } as const;

/** Product §4 Agent dialog: create, edit or show-credentials; closing it forgets any shown password. */
export function AgentDialog({
  state,
  onClose,
  onCreated,
}: {
  state: AgentDialogState | null;
  onClose: () => void;
  onCreated: (credentials: ShownCredentials) => void;
}) {
  return (
    <FormDialog open={state !== null} onClose={onClose} title={state ? TITLES[state.mode] : ''}>
      {state?.mode === 'credentials' && <CredentialsPanel credentials={state.credentials} onDone={onClose} />}
      {state?.mode === 'create' && <AgentForm onClose={onClose} onCreated={onCreated} />}
      {state?.mode === 'edit' && (
        <AgentForm key={state.agent.id} agent={state.agent} onClose={onClose} onCreated={onCreated} />
      )}
    </FormDialog>
  );
}

function AgentForm({
  agent,
  onClose,
  onCreated,
}: {
  agent?: AdminAgent;
  onClose: () => void;
  onCreated: (credentials: ShownCredentials) => void;
}) {
  const editing = agent !== undefined;
  const { values, setValues, field, formRef, formError, show } = useFormFields<AgentValues>(
    () => (agent ? agentValues(agent) : emptyAgent()),
    AGENT_FIELDS,
  );
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const busy = create.isPending || update.isPending;

  /** Field issues from a 400 go beside their fields; anything else is one line under the form. */
  const failed = (verb: string) => (error: unknown) => {
    const fields = fieldIssues(error, AGENT_FIELDS);
    const message = isApiError(error) && error.message ? error.message : 'Please try again.';
    show(fields, `Failed to ${verb} agent: ${message}`);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateAgent(values, editing);
    show(found, null);
    if (Object.keys(found).length > 0) return;
    if (!agent) {
      create.mutate(createBody(values), {
        onSuccess: (result) => {
          toast.success('Agent Created', sentSummary(result));
          onCreated({
            heading: 'Agent created',
            name: result.agent.full_name,
            email: result.agent.email,
            password: result.generatedPassword,
            whatsappLink: result.whatsappLink,
            emailed: result.credentialsEmailQueued,
            texted: result.credentialsSmsQueued,
          });
        },
        onError: failed('create'),
      });
      return;
    }
    const body = updateBody(agent, values);
    if (!body) {
      show({}, 'No changes to save.');
      return;
    }
    update.mutate(
      { id: agent.id, body },
      {
        onSuccess: () => {
          toast.success('Agent updated successfully');
          onClose();
        },
        onError: failed('update'),
      },
    );
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
      <Input label="Full name" required autoComplete="off" {...field('full_name')} />
      <Input
        label="Phone number"
        required
        type="tel"
        autoComplete="off"
        hint="A Uganda mobile number, like 0772 123 456."
        {...field('phone')}
      />
      <Input
        label="Email"
        required
        type="email"
        autoComplete="off"
        disabled={editing}
        hint={editing ? 'The email is the agent’s login and cannot be changed.' : 'The agent signs in with this email.'}
        {...field('email')}
      />
      {!editing && (
        <ChannelSelect
          value={values.send_credentials_via}
          onChange={(channel) => setValues((v) => ({ ...v, send_credentials_via: channel }))}
        />
      )}
      {formError && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <Button variant="outline" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {busy ? 'Saving...' : editing ? 'Save Changes' : 'Create Agent'}
        </Button>
      </div>
    </form>
  );
}

/** How the generated password goes to the agent (create and reset). */
export function ChannelSelect({ value, onChange }: { value: Channel; onChange: (channel: Channel) => void }) {
  return (
    <SelectField
      label="Send credentials via"
      value={value}
      onChange={(e) => onChange(e.target.value as Channel)}
      hint={CHANNEL_HINT}
    >
      {(Object.keys(CHANNEL_LABELS) as Channel[]).map((channel) => (
        <option key={channel} value={channel}>
          {CHANNEL_LABELS[channel]}
        </option>
      ))}
    </SelectField>
  );
}
