import type { AdminMovie } from '@filamu/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { TextArea } from '../../../components/ui/TextArea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useTakeDownMovie } from './queries.ts';

/**
 * Takes a film down for rights (decision 0231). Unlike Deactivate, it reaches the phones: every licence of the film is
 * revoked and it stops playing at each phone's next online check, so the dialog says so and asks why, for the record.
 */
export function TakeDownDialog({ movie, onClose }: { movie: AdminMovie | null; onClose: () => void }) {
  const takeDown = useTakeDownMovie();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (takeDown.isPending) return;
    setReason('');
    setError(null);
    onClose();
  };
  const onConfirm = () => {
    if (!movie) return;
    if (reason.trim().length < 3) {
      setError('Say why the film is taken down (at least 3 characters).');
      return;
    }
    takeDown.mutate(
      { movie, reason: reason.trim() },
      {
        onSuccess: (result) => {
          toast.success('Film taken down', result.message);
          setReason('');
          setError(null);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure, 'The film could not be taken down. Try again.')),
      },
    );
  };

  return (
    <ConfirmDialog
      open={movie !== null}
      title="Take down for rights"
      confirmLabel="Take down"
      busy={takeDown.isPending}
      onConfirm={onConfirm}
      onClose={close}
    >
      <p>
        "{movie?.title}" will be hidden and no one can download it. Every phone that holds it stops playing it at its
        next online check. Use Deactivate instead to only hide it from the library.
      </p>
      <TextArea
        label="Reason (kept in the log)"
        value={reason}
        maxLength={300}
        rows={3}
        error={error}
        onChange={(event) => {
          setReason(event.target.value);
          setError(null);
        }}
      />
    </ConfirmDialog>
  );
}
