import { ShownPassword } from '../components/ShownPassword.tsx';

export interface ShownCredentials {
  /** What happened: 'Agent created' or 'Password reset'. */
  heading: string;
  name: string;
  email: string;
  password: string;
  whatsappLink: string | null;
  emailed: boolean;
  texted: boolean;
}

/** A new agent's, or a reset agent's, sign-in: the password is shown once, with how it is also on its way. */
export function CredentialsPanel({ credentials, onDone }: { credentials: ShownCredentials; onDone: () => void }) {
  return (
    <ShownPassword
      label="Generated password"
      password={credentials.password}
      afterwards="Copy it or send it now: it cannot be shown again, only reset."
      whatsapp={
        credentials.whatsappLink ? { href: credentials.whatsappLink, label: 'Send credentials via WhatsApp' } : null
      }
      notes={
        (credentials.emailed || credentials.texted) && (
          <p className="text-sm text-stone-700 dark:text-stone-300">
            {credentials.texted && credentials.emailed
              ? `The credentials are also being sent by SMS to the agent’s phone and by email to ${credentials.email}.`
              : credentials.texted
                ? 'The credentials are also being sent by SMS to the agent’s phone.'
                : `The credentials are also being emailed to ${credentials.email}.`}
          </p>
        )
      }
      onDone={onDone}
    >
      {credentials.heading} for <strong>{credentials.name}</strong>. They sign in with{' '}
      <strong>{credentials.email}</strong> through Agent Login.
    </ShownPassword>
  );
}
