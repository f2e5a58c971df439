import { formatBytes } from '@filamu/shared';
import { useState } from 'react';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { PlayIcon } from '../../../components/ui/icons.tsx';
import { useSignedOutOwner } from '../../../lib/owner.ts';
import { toast } from '../../../lib/toast.ts';
import { RESUMABLE_STATES, RUNNABLE_STATES, type LocalDownload } from '../engine/record.ts';
import { cancelDownload, deleteFromDevice, openMovieFile, pauseDownload, resumeDownload } from '../actions.ts';
import { copyName, exportFile, isEncrypted } from '../keep-copy.ts';
import { filmFileBlob } from '../film-file.ts';
import { manifestFor, NEEDS_A_CONNECTION } from '../film-manifest.ts';
import { moveToTonight } from '../tonight/queue.ts';

/** The title after a button's visible word, for screen readers ("Pause The Movie"). */
function For({ title }: { title: string }) {
  return <span className="sr-only"> {title}</span>;
}

/** Keep a copy (decision 0234): the file exactly as the phone holds it, under the film's name. */
async function keepCopy(record: LocalDownload): Promise<void> {
  const name = copyName(record);
  // An encrypted film travels with its signed manifest in front (decision 0243), so another phone can check it.
  const manifest = isEncrypted(record) ? await manifestFor(record) : null;
  if (isEncrypted(record) && !manifest) return void toast.info('Not ready to send yet', NEEDS_A_CONNECTION);
  try {
    const film = await openMovieFile(record.movieId);
    const result = await exportFile(manifest ? filmFileBlob(manifest, film) : film, name);
    if (result === 'saved') toast.success('Copy kept', name);
    if (result === 'started') toast.info('Keeping a copy', `${name} is in your Downloads.`);
  } catch {
    toast.error(
      'Could not keep a copy',
      `${record.title} could not be copied. Check the space on your phone and try again.`,
    );
  }
}

/**
 * Pause / Resume / Cancel while downloading; Play, Keep a copy and Delete once it is here. Signed out (the films of the
 * last person signed in, decision 0233), nothing that needs the server: Resume leads to sign-in, Pause is not offered.
 */
export function DownloadActions({ record }: { record: LocalDownload }) {
  const [asking, setAsking] = useState<'cancel' | 'delete' | 'copy' | null>(null);
  const [busy, setBusy] = useState(false);
  const signedOut = !!useSignedOutOwner();
  const { movieId, title, state } = record;

  const copy = () => {
    // A plain file (stored before encryption) is an ordinary video: saved at once, as it always was.
    if (!isEncrypted(record)) return void keepCopy(record);
    setAsking('copy');
  };

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
          <Button size="sm" variant="outline" onClick={copy}>
            Keep a copy
            <For title={title} />
          </Button>
        </>
      )}
      {RUNNABLE_STATES.has(state) && !signedOut && (
        <Button size="sm" variant="outline" onClick={() => void pauseDownload(movieId)}>
          Pause
          <For title={title} />
        </Button>
      )}
      {RESUMABLE_STATES.has(state) && !signedOut && (
        <Button size="sm" onClick={() => void resumeDownload(movieId)}>
          {/* A film waiting for tonight would spend day data: said plainly. */}
          {record.nightOnly ? 'Download now' : 'Resume'}
          <For title={title} />
        </Button>
      )}
      {(RUNNABLE_STATES.has(state) || state === 'paused' || state === 'needs-space') &&
        !record.nightOnly &&
        !signedOut && (
          <Button size="sm" variant="outline" onClick={() => void moveToTonight(record)}>
            Download tonight
            <For title={title} />
          </Button>
        )}
      {(RESUMABLE_STATES.has(state) || RUNNABLE_STATES.has(state)) && signedOut && (
        <LinkButton to="/login" size="sm">
          Sign in to finish
          <For title={title} />
        </LinkButton>
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
        {state === 'complete' && <p>To keep it elsewhere on this phone, use Keep a copy first.</p>}
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'copy'}
        title="Keep a copy?"
        confirmLabel="Keep a copy"
        cancelLabel="Not now"
        confirmVariant="primary"
        onConfirm={() => {
          setAsking(null);
          void keepCopy(record);
        }}
        onClose={() => setAsking(null)}
      >
        <p>
          A copy of {title} is saved as {copyName(record)}. It opens only in Filamu, on a phone with its own licence for
          this film.
        </p>
        <p>
          Send it to a friend with any app or a memory card: they open it in Filamu with “Open a film file”, and it
          plays with their own plan — no data spent on the film.
        </p>
        <p>It is the size of the film: {formatBytes(record.size)}.</p>
      </ConfirmDialog>
    </div>
  );
}
