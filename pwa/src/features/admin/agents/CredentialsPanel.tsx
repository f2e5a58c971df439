import { useState } from 'react';
import { Button, buttonClasses } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';

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

/**
 * The generated password, shown once (product §2/§4): the server keeps only its hash, so closing the dialog
 * is the last chance to copy it.
 */
export function CredentialsPanel({ credentials, onDone }: { credentials: ShownCredentials; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(credentials.password);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {credentials.heading} for <strong>{credentials.name}</strong>. They sign in with{' '}
        <strong>{credentials.email}</strong> through Agent Login.
      </p>
      <div className="flex items-end gap-2">
        <Input
          label="Generated password"
          readOnly
          value={credentials.password}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 font-mono"
        />
        <Button variant="outline" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
        {copied === 'yes' && 'Password copied to the clipboard.'}
        {copied === 'failed' && 'Could not copy automatically: select the password and copy it yourself.'}
      </p>
      <p className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
        This password is shown only once. Copy it or send it now: it cannot be shown again, only reset.
      </p>
      {(credentials.emailed || credentials.texted) && (
        <p className="text-sm text-stone-700 dark:text-stone-300">
          {credentials.texted && credentials.emailed
            ? `The credentials are also being sent by SMS to the agent’s phone and by email to ${credentials.email}.`
            : credentials.texted
              ? 'The credentials are also being sent by SMS to the agent’s phone.'
              : `The credentials are also being emailed to ${credentials.email}.`}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        {credentials.whatsappLink && (
          <a
            href={credentials.whatsappLink}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses('outline')}
          >
            Send credentials via WhatsApp
          </a>
        )}
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
