import { SUPPORT_NOTE_MAX, type Subscriber } from '@filamu/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { TextArea } from '../../../components/ui/TextArea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { SupportContextPanel } from './SupportContextPanel.tsx';
import { useGrantRedownload, useSupportContext } from './queries.ts';
import { smsResult } from './support-sms.ts';
import { subscriberLine } from './subscriber-line.ts';

/**
 * Support's way back for a person who lost a movie and has no re-download left this month: one more, kept until used
 * (decision 0122). The dialog shows their month and recent movies first, takes a note for their history, and says
 * whether they got a text (decision 0214).
 */
export function GrantRedownloadDialog({ subscriber, onClose }: { subscriber: Subscriber | null; onClose: () => void }) {
  const grant = useGrantRedownload();
  const close = () => !grant.isPending && onClose();
  return (
    <FormDialog
      open={subscriber !== null}
      onClose={close}
      title="Grant a re-download?"
      description={subscriberLine(subscriber)}
      wide
    >
      {/* Keyed so each person starts from an empty note. */}
      {subscriber && <GrantForm key={subscriber.id} subscriber={subscriber} onClose={onClose} grant={grant} />}
    </FormDialog>
  );
}

function GrantForm({
  subscriber,
  onClose,
  grant,
}: {
  subscriber: Subscriber;
  onClose: () => void;
  grant: ReturnType<typeof useGrantRedownload>;
}) {
  const context = useSupportContext(subscriber.id);
  const [note, setNote] = useState('');
  const tooLong = note.trim().length > SUPPORT_NOTE_MAX;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) return;
    grant.mutate(
      { id: subscriber.id, body: { note: note.trim() || undefined } },
      {
        onSuccess: (result) => {
          toast.success('Re-download granted', `${result.message} ${smsResult(result.sms, subscriber.phone)}`);
          onClose();
        },
        onError: (error) => toast.error('Could not grant a re-download', errorMessage(error, 'Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        They can then download one movie they downloaded before once more, on top of this month&apos;s own re-downloads.
        It is kept until they use it, and works for any of their movies.
      </p>
      <SupportContextPanel context={context.data} error={context.error} onRetry={() => void context.refetch()} />
      <TextArea
        label="Note for their history (optional)"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={SUPPORT_NOTE_MAX + 20}
        rows={3}
        className="[&_textarea]:min-h-20"
        placeholder="Why, for example: lost the phone in a taxi on 3 Nov"
        error={tooLong ? `The note must be at most ${SUPPORT_NOTE_MAX} characters.` : null}
        hint={`${note.trim().length} of ${SUPPORT_NOTE_MAX} characters. Admins see it in their history; it is not sent to them.`}
      />
      <div className="flex flex-wrap justify-end gap-3">
        <Button type="button" variant="outline" onClick={onClose} disabled={grant.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={grant.isPending} disabled={tooLong}>
          Grant a re-download
        </Button>
      </div>
    </form>
  );
}
