import { formatBytes, groupDigits, type DownloadSize, type UserMovie } from '@filamu/shared';
import { useState } from 'react';
import { Modal, ModalDescription, ModalTitle } from '../../../components/ui/Modal.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { useDataPrice } from '../data-price.ts';
import { spaceVerdict } from '../estimates.ts';
import { useStorageFigures } from '../hooks.ts';
import { startDownload } from '../actions.ts';
import { measuredSpeed } from '../speed-memory.ts';
import { setDefaultSize, setLastPickedSize, useDownloadSettings } from '../settings.ts';
import { usePhoneSizes } from '../phone-sizes.ts';
import { preselectSize } from '../sizes.ts';
import { sizeName } from '../describe.ts';
import { useDownloadsT } from '../messages.ts';
import { FreeUpSpace } from './FreeUpSpace.tsx';
import { SizeOptions } from './SizeOptions.tsx';
import { queueForTonight } from '../tonight/queue.ts';
import { TonightPrices } from '../tonight/TonightPrices.tsx';

/**
 * Download Now asks which size first (issue 10/14 §4): each size with its bytes, what it costs in data at the
 * person's price, the time at the speed this phone last measured (when it measured one) and whether it fits in the
 * space left — a warning, never a refusal (decision 0139), with watched movies to delete when it may not fit
 * (decision 0174). The smallest size is pre-selected, or the one picked here last time (decision 0208). Only the
 * sizes this phone plays are listed: one Small, HEVC where the phone decodes it in hardware (decision 0252).
 */
export function SizeChoiceDialog({ movie, open, onClose }: { movie: UserMovie; open: boolean; onClose: () => void }) {
  const t = useDownloadsT();
  const settings = useDownloadSettings();
  const price = useDataPrice();
  /** Bumped when movies were deleted here: the free space is asked again at once. */
  const [freedTimes, setFreedTimes] = useState(0);
  const [freedNote, setFreedNote] = useState<string | null>(null);
  const storage = useStorageFigures(5000, freedTimes);
  const [speed] = useState(() => measuredSpeed());
  const [picked, setPicked] = useState<DownloadSize | null>(null);
  const [remember, setRemember] = useState(false);
  // Asked of the phone's decoder in milliseconds: until then nothing is listed, rather than a Small it may not get.
  const offered = usePhoneSizes(movie.sizes);
  const sizes = offered ?? [];
  const chosen = picked ?? preselectSize(sizes, 'ask', settings.lastPickedSize);
  const chosenSize = sizes.find((s) => s.size === chosen);
  const free = storage?.free ?? null;
  const tooBig = chosenSize ? spaceVerdict(chosenSize.bytes, 0, free).fits === false : false;

  // The dialog closes at once: the movie's own button says "Checking..." while the server is asked.
  const confirm = () => {
    if (!chosen) return;
    if (remember) setDefaultSize(chosen);
    setLastPickedSize(chosen);
    onClose();
    void startDownload(movie, { size: chosen, spaceWarned: true });
  };

  // Issue 21/22: the same size, fetched in the next night window at the night bundle's price.
  const tonight = () => {
    if (!chosen) return;
    if (remember) setDefaultSize(chosen);
    setLastPickedSize(chosen);
    onClose();
    void queueForTonight(movie, chosen);
  };

  return (
    <Modal open={open} onClose={onClose} className="p-5 sm:p-6">
      <ModalTitle>{t('downloads.size.title', { title: movie.title })}</ModalTitle>
      <ModalDescription className="mt-1">
        {sizes.length > 1 ? t('downloads.size.choose') : offered && t('downloads.size.oneSize')}
      </ModalDescription>
      {offered === null ? (
        <p role="status" className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          {t('downloads.size.checking')}
        </p>
      ) : sizes.length === 0 ? (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
          {t('downloads.size.none')}
        </p>
      ) : (
        <SizeOptions
          movieId={movie.id}
          sizes={sizes}
          chosen={chosen}
          onPick={setPicked}
          price={price}
          free={free}
          speed={speed}
        />
      )}
      {speed !== null && (
        <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">{t('downloads.size.measuredSpeed')}</p>
      )}
      {tooBig && chosenSize && (
        <div
          data-testid="size-space-warning"
          className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <p role="status">
            <strong className="font-semibold">{t('downloads.size.mayNotFit')}</strong>{' '}
            {t('downloads.size.mayNotFit.text', {
              needed: formatBytes(chosenSize.bytes),
              free: formatBytes(free ?? 0),
            })}
          </p>
          <FreeUpSpace
            needed={chosenSize.bytes}
            free={free}
            onFreed={(count, bytes) => {
              setFreedNote(t('downloads.size.freed', { count, bytes: formatBytes(bytes) }));
              setFreedTimes((n) => n + 1);
            }}
          />
        </div>
      )}
      {/* Outside the warning, which may go once the space is there: the person still learns what was done. */}
      <p role="status" className="mt-2 text-sm font-medium text-green-800 empty:hidden dark:text-green-300">
        {freedNote}
      </p>
      {sizes.length > 1 && (
        <label className="mt-3 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-brand-700"
          />
          <span>{t('downloads.size.remember')}</span>
        </label>
      )}
      {chosenSize && <TonightPrices bytes={chosenSize.bytes} />}
      <p className="mt-3 text-xs text-stone-600 dark:text-stone-400">
        {t('downloads.size.priceNote', { price: groupDigits(price) })}
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          {t('downloads.action.cancel')}
        </Button>
        {chosen && (
          <Button variant="outline" onClick={tonight}>
            {t('downloads.action.tonight')}
          </Button>
        )}
        {chosen && <Button onClick={confirm}>{t('downloads.size.confirm', { size: sizeName(chosen) })}</Button>}
      </div>
    </Modal>
  );
}
