import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { licenceStanding } from '../../licences/film-key.ts';
import { onUnlocked, type UnlockRequest, unlockRequestOf, unlockWithCode } from '../../licences/unlock.ts';
import { useOnline } from '../../../lib/online.ts';
import type { LocalDownload } from '../engine/record.ts';
import { useDownloadsT } from '../messages.ts';

/**
 * "No data? Unlock with USSD" (decision 0249): for a received film with no licence, the request code to type into
 * Filamu's USSD service and a field for the 20-digit unlock code it answers. The film then plays on this phone.
 */

export function UssdUnlock({ ownerId, movieId, title }: { ownerId: string; movieId: string; title: string }) {
  const t = useDownloadsT();
  const [open, setOpen] = useState(false);
  const [unlocked, setUnlocked] = useState(false);
  const panelId = useId();
  // Unlocked here or in the other place that offers it (the outcome of a received film, and its row).
  useEffect(
    () =>
      onUnlocked((owner, movie) => {
        if (owner === ownerId && movie === movieId) setUnlocked(true);
      }),
    [ownerId, movieId],
  );
  if (unlocked) {
    return (
      <p role="status" className="mt-3 text-sm font-medium text-green-800 dark:text-green-300">
        {t('downloads.ussd.unlocked', { title })}
      </p>
    );
  }
  return (
    <div className="mt-3 text-sm">
      <Button
        size="sm"
        variant="outline"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
        className="text-left"
      >
        {t('downloads.ussd.open')}
      </Button>
      {open && (
        <div id={panelId} className="mt-3">
          <UnlockSteps ownerId={ownerId} movieId={movieId} title={title} />
        </div>
      )}
    </div>
  );
}

/** The steps, once asked for: a film that unlocks here is said so by `UssdUnlock` (it hears of every unlock). */
function UnlockSteps({ ownerId, movieId, title }: { ownerId: string; movieId: string; title: string }) {
  const t = useDownloadsT();
  const [request, setRequest] = useState<UnlockRequest | null>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    void unlockRequestOf(ownerId, movieId)
      .catch((): UnlockRequest => ({ kind: 'no-sealed-key' }))
      .then((found) => alive && setRequest(found));
    return () => {
      alive = false;
    };
  }, [ownerId, movieId]);

  if (!request) return <p className="text-stone-600 dark:text-stone-400">{t('downloads.ussd.gettingCode')}</p>;
  if (request.kind === 'no-sealed-key') {
    return <p className="text-stone-700 dark:text-stone-300">{t('downloads.ussd.noSealedKey')}</p>;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const outcome = await unlockWithCode(ownerId, movieId, typed);
      if (outcome.ok) return;
      setError(
        outcome.reason === 'malformed'
          ? t('downloads.ussd.not20')
          : outcome.reason === 'wrong-code'
            ? t('downloads.ussd.wrongCode')
            : t('downloads.ussd.noSealedKey'),
      );
    } catch {
      setError(t('downloads.ussd.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <ol className="list-decimal space-y-1.5 pl-5 text-stone-700 dark:text-stone-300">
        <li>
          {t('downloads.ussd.step1')}{' '}
          <strong className="whitespace-nowrap text-stone-900 dark:text-stone-100">{request.serviceCode}</strong>
        </li>
        <li>{t('downloads.ussd.step2')}</li>
        <li>
          {t('downloads.ussd.step3')}{' '}
          <strong
            data-testid="request-code"
            className="whitespace-nowrap font-mono text-base tracking-wider text-stone-900 dark:text-stone-100"
          >
            {request.requestCode}
          </strong>
        </li>
        <li>{t('downloads.ussd.step4')}</li>
      </ol>
      <Input
        className="mt-3"
        label={t('downloads.ussd.label', { title })}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder="0000 0000 0000 0000 0000"
        maxLength={60}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        error={error}
      />
      <Button type="submit" size="sm" className="mt-3" disabled={busy}>
        {busy ? t('downloads.ussd.unlocking') : t('downloads.ussd.unlock')}
      </Button>
    </form>
  );
}

/**
 * On a received film's row in My Downloads, offline, while it has no licence (and was not unlocked): the same offer.
 * Online, the Play screen fetches the licence instead.
 */
export function RowUssdUnlock({ record }: { record: LocalDownload }) {
  const online = useOnline();
  const candidate = !online && record.received === true && record.state === 'complete';
  const [waits, setWaits] = useState(false);
  useEffect(() => {
    if (!candidate) return;
    let alive = true;
    void licenceStanding(record.ownerId, record.movieId)
      .then((standing) => alive && setWaits(!standing.playable && standing.why === 'none'))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [candidate, record.ownerId, record.movieId]);
  if (!candidate || !waits) return null;
  return <UssdUnlock ownerId={record.ownerId} movieId={record.movieId} title={record.title} />;
}
