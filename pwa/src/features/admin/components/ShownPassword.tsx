import { useState, type ReactNode } from 'react';
import { Button, buttonClasses } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';

const warningClasses =
  'rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100';

/**
 * A generated password, shown once (product §2/§4, decision 0155): the server keeps only its hash, so closing the
 * dialog is the last chance to copy it. `children` say who signs in with it; `notes` say how it is on its way.
 */
export function ShownPassword({
  label,
  password,
  afterwards,
  whatsapp,
  notes,
  onDone,
  children,
}: {
  label: string;
  password: string;
  /** What the admin can still do, said after "This password is shown only once." */
  afterwards: string;
  whatsapp: { href: string; label: string } | null;
  notes?: ReactNode;
  onDone: () => void;
  children: ReactNode;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-700 dark:text-stone-300">{children}</p>
      <div className="flex items-end gap-2">
        <Input
          label={label}
          readOnly
          value={password}
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
      {notes}
      <p className={warningClasses}>This password is shown only once. {afterwards}</p>
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        {whatsapp && (
          <a href={whatsapp.href} target="_blank" rel="noopener noreferrer" className={buttonClasses('outline')}>
            {whatsapp.label}
          </a>
        )}
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/** The amber box that asks the admin to pass a password on by hand. */
export const handOverClasses = `${warningClasses} font-medium`;
