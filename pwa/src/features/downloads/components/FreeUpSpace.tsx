import { formatBytes } from '@filamu/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { useSession } from '../../../lib/session.ts';
import { useWatchPositions } from '../../watching/hooks.ts';
import { useLocalDownloads } from '../hooks.ts';
import { deleteFromDevice } from '../actions.ts';
import { useDownloadsT } from '../messages.ts';
import { bytesFreed, deleteLabel, spaceShortfall, suggestedSelection, watchedOnPhone } from '../smart-storage.ts';

/**
 * "Free up space" in the size choice when the chosen size may not fit (decision 0174): the watched movies on this
 * phone, each with what deleting it frees, ticked at first just enough to cover what is missing. Nothing is deleted
 * before the person taps "Delete N movies · frees X".
 */
export function FreeUpSpace({
  needed,
  free,
  onFreed,
}: {
  needed: number;
  free: number | null;
  onFreed: (count: number, bytes: number) => void;
}) {
  const t = useDownloadsT();
  const records = useLocalDownloads();
  const { positions } = useWatchPositions();
  const files = watchedOnPhone(records, positions);
  const [open, setOpen] = useState(false);
  /** Null until the person ticks or unticks one: the suggestion stands. */
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const listId = useId();
  const firstRef = useRef<HTMLInputElement>(null);
  // Agents have no re-downloads (decision 0121).
  const agent = useSession().status === 'agent';
  // The button that opened the list is gone: the person lands on the first movie instead of the page's start.
  useEffect(() => {
    if (open) firstRef.current?.focus();
  }, [open]);

  if (files.length === 0) return null;
  const selected = new Set(
    [...(picked ?? suggestedSelection(files, spaceShortfall(needed, free)))].filter((id) =>
      files.some((file) => file.movieId === id),
    ),
  );
  const bytes = bytesFreed(files, selected);

  const toggle = (movieId: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(movieId);
    else next.delete(movieId);
    setPicked(next);
  };

  const remove = async () => {
    setBusy(true);
    setFailed(false);
    let count = 0;
    let freed = 0;
    for (const file of files.filter((f) => selected.has(f.movieId))) {
      try {
        await deleteFromDevice(file.movieId);
        count += 1;
        freed += file.bytes;
      } catch {
        setFailed(true);
      }
    }
    setBusy(false);
    // Nothing more is ticked for the person: the next figures come from the browser.
    setPicked(new Set());
    if (count > 0) onFreed(count, freed);
  };

  if (!open) {
    return (
      <Button size="sm" variant="outline" className="mt-3" onClick={() => setOpen(true)}>
        {t('downloads.freeUp.open')}
      </Button>
    );
  }

  return (
    <fieldset className="mt-3">
      <legend className="font-semibold">{t('downloads.freeUp.legend')}</legend>
      <p className="mt-0.5 text-xs">{agent ? t('downloads.freeUp.agent') : t('downloads.freeUp.redownload')}</p>
      <ul className="mt-2 space-y-1">
        {files.map((file, index) => {
          const id = `${listId}-${file.movieId}`;
          return (
            <li key={file.movieId}>
              <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3 py-1">
                <input
                  ref={index === 0 ? firstRef : undefined}
                  id={id}
                  type="checkbox"
                  checked={selected.has(file.movieId)}
                  onChange={(e) => toggle(file.movieId, e.target.checked)}
                  className="size-4 shrink-0 accent-brand-700"
                />
                <span className="min-w-0 flex-1 break-words">{file.title}</span>
                <span className="shrink-0 tabular-nums">
                  {t('downloads.freeUp.frees', { bytes: formatBytes(file.bytes) })}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {failed && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          {t('downloads.freeUp.failed')}
        </p>
      )}
      <Button
        size="sm"
        variant="danger"
        className="mt-2"
        disabled={selected.size === 0}
        loading={busy}
        onClick={() => void remove()}
      >
        {deleteLabel(selected.size, bytes)}
      </Button>
    </fieldset>
  );
}
