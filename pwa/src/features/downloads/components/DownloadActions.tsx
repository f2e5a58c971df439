import { formatBytes } from '@filamu/shared';
import { useState } from 'react';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { PlayIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../lib/toast.ts';
import { RESUMABLE_STATES, RUNNABLE_STATES, type LocalDownload } from '../engine/record.ts';
import { cancelDownload, deleteFromDevice, openMovieFile, pauseDownload, resumeDownload } from '../actions.ts';
import { saveToPhone } from '../save.ts';

/** The title after a button's visible word, for screen readers ("Pause The Movie"). */
function For({ title }: { title: string }) {
  return <span className="sr-only"> {title}</span>;
}

async function save(record: LocalDownload): Promise<void> {
  try {
    const result = await saveToPhone(await openMovieFile(record.movieId), record.fileName);
    if (result === 'saved') toast.success('Saved to your phone', record.fileName);
    if (result === 'started') toast.info('Saving to your phone', `${record.fileName} is in your Downloads.`);
  } catch {
    toast.error('Could not save', `${record.title} could not be saved. Check the space on your phone and try again.`);
  }
}

/** Pause / Resume / Cancel while downloading; Play, Save to phone and Delete once it is here. */
export function DownloadActions({ record }: { record: LocalDownload }) {
  const [asking, setAsking] = useState<'cancel' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const { movieId, title, state } = record;

  const confirm = async () => {
    setBusy(true);
    try {
      if (asking === 'cancel') await cancelDownload(movieId);
      else await deleteFromDevice(movieId);
    } catch {
      toast.error(asking === 'cancel' ? 'Cancel failed' : 'Delete failed', 'Please try again.');
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <div className="flex flex-wrap gap-2">
      {state === 'complete' && (
        <>
          <LinkButton to={`/downloads/${movieId}/play`} size="sm">
            <PlayIcon className="size-4" /> Play
            <For title={title} />
          </LinkButton>
          <Button size="sm" variant="outline" onClick={() => void save(record)}>
            Save to phone
            <For title={title} />
          </Button>
        </>
      )}
      {RUNNABLE_STATES.has(state) && (
        <Button size="sm" variant="outline" onClick={() => void pauseDownload(movieId)}>
          Pause
          <For title={title} />
        </Button>
      )}
      {RESUMABLE_STATES.has(state) && (
        <Button size="sm" onClick={() => void resumeDownload(movieId)}>
          Resume
          <For title={title} />
        </Button>
      )}
      {(RUNNABLE_STATES.has(state) || RESUMABLE_STATES.has(state)) && (
        <Button size="sm" variant="ghost" onClick={() => setAsking('cancel')}>
          Cancel
          <For title={title} />
        </Button>
      )}
      {(state === 'complete' || state === 'cancelled') && (
        <Button
          size="sm"
          variant="ghost"
          className="text-red-700! dark:text-red-400!"
          onClick={() => setAsking('delete')}
        >
          Delete
          <For title={title} />
        </Button>
      )}

      <ConfirmDialog
        open={asking === 'cancel'}
        title="Cancel this download?"
        confirmLabel="Cancel download"
        cancelLabel="Keep downloading"
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(null)}
      >
        <p>
          {title} stops downloading and the part already on this phone is deleted. You can start it again later from the
          movie.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'delete'}
        title="Delete from this phone?"
        confirmLabel="Delete"
        cancelLabel="Keep it"
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(null)}
      >
        <p>
          {title} is removed from this phone, freeing {formatBytes(record.size)}. Each movie downloads once per person:
          getting it back later uses one of your few monthly re-downloads.
        </p>
        {state === 'complete' && <p>To keep a copy, use Save to phone first.</p>}
      </ConfirmDialog>
    </div>
  );
}
