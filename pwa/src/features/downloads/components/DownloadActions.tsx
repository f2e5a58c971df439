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
import { manifestFor } from '../film-manifest.ts';
import { moveToTonight } from '../tonight/queue.ts';
import { downloadsT, useDownloadsT } from '../messages.ts';

/** The title after a button's visible word, for screen readers ("Pause The Movie"). */
function For({ title }: { title: string }) {
  return <span className="sr-only"> {title}</span>;
}

/** Keep a copy (decision 0234): the file exactly as the phone holds it, under the film's name. */
async function keepCopy(record: LocalDownload): Promise<void> {
  const name = copyName(record);
  // An encrypted film travels with its signed manifest in front (decision 0243), so another phone can check it.
  const manifest = isEncrypted(record) ? await manifestFor(record) : null;
  if (isEncrypted(record) && !manifest) {
    return void toast.info(downloadsT('downloads.copy.notReady'), downloadsT('downloads.copy.needsConnection'));
  }
  try {
    const film = await openMovieFile(record.movieId);
    const result = await exportFile(manifest ? filmFileBlob(manifest, film) : film, name);
    if (result === 'saved') toast.success(downloadsT('downloads.copy.kept'), name);
    if (result === 'started') {
      toast.info(downloadsT('downloads.copy.keeping'), downloadsT('downloads.copy.keeping.text', { name }));
    }
  } catch {
    toast.error(downloadsT('downloads.copy.failed'), downloadsT('downloads.copy.failed.text', { title: record.title }));
  }
}

/**
 * Pause / Resume / Cancel while downloading; Play, Keep a copy and Delete once it is here. Signed out (the films of the
 * last person signed in, decision 0233), nothing that needs the server: Resume leads to sign-in, Pause is not offered.
 */
export function DownloadActions({ record }: { record: LocalDownload }) {
  const t = useDownloadsT();
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
      toast.error(
        asking === 'cancel' ? t('downloads.cancel.failed') : t('downloads.delete.failed'),
        t('downloads.tryAgain'),
      );
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
            <PlayIcon className="size-4" /> {t('downloads.action.play')}
            <For title={title} />
          </LinkButton>
          <Button size="sm" variant="outline" onClick={copy}>
            {t('downloads.action.keepCopy')}
            <For title={title} />
          </Button>
        </>
      )}
      {RUNNABLE_STATES.has(state) && !signedOut && (
        <Button size="sm" variant="outline" onClick={() => void pauseDownload(movieId)}>
          {t('downloads.action.pause')}
          <For title={title} />
        </Button>
      )}
      {RESUMABLE_STATES.has(state) && !signedOut && (
        <Button size="sm" onClick={() => void resumeDownload(movieId)}>
          {/* A film waiting for tonight would spend day data: said plainly. */}
          {record.nightOnly ? t('downloads.action.downloadNow') : t('downloads.action.resume')}
          <For title={title} />
        </Button>
      )}
      {(RUNNABLE_STATES.has(state) || state === 'paused' || state === 'needs-space') &&
        !record.nightOnly &&
        !signedOut && (
          <Button size="sm" variant="outline" onClick={() => void moveToTonight(record)}>
            {t('downloads.action.tonight')}
            <For title={title} />
          </Button>
        )}
      {(RESUMABLE_STATES.has(state) || RUNNABLE_STATES.has(state)) && signedOut && (
        <LinkButton to="/login" size="sm">
          {t('downloads.action.signInToFinish')}
          <For title={title} />
        </LinkButton>
      )}
      {(RUNNABLE_STATES.has(state) || RESUMABLE_STATES.has(state)) && (
        <Button size="sm" variant="ghost" onClick={() => setAsking('cancel')}>
          {t('downloads.action.cancel')}
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
          {t('downloads.action.delete')}
          <For title={title} />
        </Button>
      )}

      <ConfirmDialog
        open={asking === 'cancel'}
        title={t('downloads.cancel.title')}
        confirmLabel={t('downloads.cancel.confirm')}
        cancelLabel={t('downloads.cancel.keep')}
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(null)}
      >
        <p>{t('downloads.cancel.text', { title })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'delete'}
        title={t('downloads.delete.title')}
        confirmLabel={t('downloads.action.delete')}
        cancelLabel={t('downloads.delete.keep')}
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(null)}
      >
        <p>{t('downloads.delete.text', { title, bytes: formatBytes(record.size) })}</p>
        {state === 'complete' && <p>{t('downloads.delete.copyFirst')}</p>}
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'copy'}
        title={t('downloads.copy.title')}
        confirmLabel={t('downloads.action.keepCopy')}
        cancelLabel={t('downloads.copy.notNow')}
        confirmVariant="primary"
        onConfirm={() => {
          setAsking(null);
          void keepCopy(record);
        }}
        onClose={() => setAsking(null)}
      >
        <p>{t('downloads.copy.text', { title, name: copyName(record) })}</p>
        <p>{t('downloads.copy.send')}</p>
        <p>{t('downloads.copy.size', { bytes: formatBytes(record.size) })}</p>
      </ConfirmDialog>
    </div>
  );
}
