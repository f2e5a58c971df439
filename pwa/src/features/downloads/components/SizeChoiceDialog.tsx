import { DOWNLOAD_SIZE_LABELS, formatBytes, type DownloadSize, type UserMovie } from '@filamu/shared';
import { useState } from 'react';
import { Modal, ModalDescription, ModalTitle } from '../../../components/ui/Modal.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { useDataPrice } from '../data-price.ts';
import { formatTimeLeft } from '../describe.ts';
import { estimateSeconds, spaceVerdict } from '../estimates.ts';
import { useStorageFigures } from '../hooks.ts';
import { startDownload } from '../actions.ts';
import { measuredSpeed } from '../speed-memory.ts';
import { connectionInfo, setDefaultSize, useDownloadSettings } from '../settings.ts';
import { costText, preselectSize } from '../sizes.ts';
import { FreeUpSpace } from './FreeUpSpace.tsx';

/**
 * Download Now asks which size first (issue 10/14 §4): each size with its bytes, what it costs in data at the
 * person's price, the time at the speed this phone last measured (when it measured one) and whether it fits in the
 * space left — a warning, never a refusal (decision 0139), with watched movies to delete when it may not fit
 * (decision 0174). Data Saver, or mobile data without "Wi-Fi only", pre-selects Small.
 */
export function SizeChoiceDialog({ movie, open, onClose }: { movie: UserMovie; open: boolean; onClose: () => void }) {
  const settings = useDownloadSettings();
  const price = useDataPrice();
  /** Bumped when movies were deleted here: the free space is asked again at once. */
  const [freedTimes, setFreedTimes] = useState(0);
  const [freedNote, setFreedNote] = useState<string | null>(null);
  const storage = useStorageFigures(5000, freedTimes);
  const [speed] = useState(() => measuredSpeed());
  const [picked, setPicked] = useState<DownloadSize | null>(null);
  const [remember, setRemember] = useState(false);
  const chosen = picked ?? preselectSize(movie.sizes, 'ask', connectionInfo(), settings.wifiOnly);
  const chosenSize = movie.sizes.find((s) => s.size === chosen);
  const free = storage?.free ?? null;
  const tooBig = chosenSize ? spaceVerdict(chosenSize.bytes, 0, free).fits === false : false;

  // The dialog closes at once: the movie's own button says "Checking..." while the server is asked.
  const confirm = () => {
    if (!chosen) return;
    if (remember) setDefaultSize(chosen);
    onClose();
    void startDownload(movie, { size: chosen, spaceWarned: true });
  };

  return (
    <Modal open={open} onClose={onClose} className="p-5 sm:p-6">
      <ModalTitle>Download {movie.title}</ModalTitle>
      <ModalDescription className="mt-1">
        {movie.sizes.length > 1
          ? 'Choose a size. Smaller sizes use less data and look fine on a phone.'
          : 'This movie comes in one size.'}
      </ModalDescription>
      {movie.sizes.length === 0 ? (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
          This movie cannot be downloaded right now. Please try again later.
        </p>
      ) : (
        <fieldset className="mt-4">
          <legend className="sr-only">Size</legend>
          <ul className="space-y-2">
            {movie.sizes.map((s) => {
              const fits = spaceVerdict(s.bytes, 0, free).fits;
              const seconds = speed ? estimateSeconds(s.bytes, speed) : null;
              const id = `size-${movie.id}-${s.size}`;
              return (
                <li key={s.size}>
                  <label
                    htmlFor={id}
                    className={cn(
                      'flex cursor-pointer items-start gap-3 rounded-xl border p-3',
                      'border-stone-200 has-checked:border-brand-700 has-checked:bg-brand-50',
                      'dark:border-stone-700 dark:has-checked:border-brand-400 dark:has-checked:bg-brand-950/40',
                    )}
                  >
                    <input
                      id={id}
                      type="radio"
                      name={`size-${movie.id}`}
                      value={s.size}
                      checked={chosen === s.size}
                      onChange={() => setPicked(s.size)}
                      className="mt-1 size-4 shrink-0 accent-brand-700"
                    />
                    <span className="min-w-0">
                      <span className="block font-semibold">
                        {DOWNLOAD_SIZE_LABELS[s.size]} · {formatBytes(s.bytes)} · {costText(s.bytes, price)}
                      </span>
                      <span className="block text-sm text-stone-600 dark:text-stone-400">
                        {[
                          s.height ? `${s.height}p` : null,
                          seconds !== null ? formatTimeLeft(seconds).replace(/ left$/, ' to download') : null,
                          fits === false ? 'may not fit on this phone' : null,
                        ]
                          .filter(Boolean)
                          .join(' · ') || null}
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
      {speed !== null && (
        <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
          Times are at the speed this phone last measured.
        </p>
      )}
      {tooBig && chosenSize && (
        <div
          data-testid="size-space-warning"
          className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <p role="status">
            <strong className="font-semibold">It may not fit.</strong> This size needs {formatBytes(chosenSize.bytes)}{' '}
            and this phone has {formatBytes(free ?? 0)} free for Filamu. Free up space, or choose a smaller size.
          </p>
          <FreeUpSpace
            needed={chosenSize.bytes}
            free={free}
            onFreed={(count, bytes) => {
              setFreedNote(`Deleted ${count} ${count === 1 ? 'movie' : 'movies'}: ${formatBytes(bytes)} freed.`);
              setFreedTimes((n) => n + 1);
            }}
          />
        </div>
      )}
      {/* Outside the warning, which may go once the space is there: the person still learns what was done. */}
      <p role="status" className="mt-2 text-sm font-medium text-green-800 empty:hidden dark:text-green-300">
        {freedNote}
      </p>
      {movie.sizes.length > 1 && (
        <label className="mt-3 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-brand-700"
          />
          <span>Always download this size (you can change it in Download settings)</span>
        </label>
      )}
      <p className="mt-3 text-xs text-stone-600 dark:text-stone-400">
        Data prices are estimates at UGX {price.toLocaleString('en-US')} per GB.
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        {chosen && <Button onClick={confirm}>Download {DOWNLOAD_SIZE_LABELS[chosen]}</Button>}
      </div>
    </Modal>
  );
}
