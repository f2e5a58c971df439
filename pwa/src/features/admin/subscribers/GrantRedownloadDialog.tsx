import type { Subscriber } from '@filamu/shared';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useGrantRedownload } from './queries.ts';

/**
 * Support's way back for a person who lost a movie and has no re-download left this month: one more, kept until used
 * (decision 0122). Asked first, because it is taken at once.
 */
export function GrantRedownloadDialog({ subscriber, onClose }: { subscriber: Subscriber | null; onClose: () => void }) {
  const grant = useGrantRedownload();
  const confirm = () => {
    if (!subscriber) return;
    grant.mutate(subscriber.id, {
      onSuccess: (result) => {
        toast.success('Re-download granted', result.message);
        onClose();
      },
      onError: (error) => {
        toast.error('Could not grant a re-download', errorMessage(error, 'Please try again.'));
        onClose();
      },
    });
  };
  const unused = subscriber?.extra_redownloads ?? 0;
  return (
    <ConfirmDialog
      open={subscriber !== null}
      title="Grant a re-download?"
      confirmLabel="Grant a re-download"
      confirmVariant="primary"
      busy={grant.isPending}
      onConfirm={confirm}
      onClose={() => !grant.isPending && onClose()}
    >
      <p>
        {subscriber?.full_name || subscriber?.email} can then download one movie they downloaded before once more, on
        top of this month&apos;s own re-downloads. It is kept until they use it.
      </p>
      <p>
        {unused === 0 ? 'They have no extra re-downloads now.' : `They have ${unused} extra unused now.`} Grant one when
        a movie was lost, for example with a phone.
      </p>
    </ConfirmDialog>
  );
}
