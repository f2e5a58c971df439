import { formatBytes, type DownloadSize, type MovieSize } from '@filamu/shared';
import { cn } from '../../../components/ui/cn.ts';
import { estimateSeconds, spaceVerdict } from '../estimates.ts';
import { sizeName, timeWords } from '../describe.ts';
import { useDownloadsT } from '../messages.ts';
import { costText, sizeDetail } from '../sizes.ts';

/**
 * The sizes of one movie as radio choices: each with its bytes, its price in data, the time at this phone's measured
 * speed and whether it may not fit. Used by the first download's size choice and by "Download again".
 */
export function SizeOptions({
  movieId,
  sizes,
  chosen,
  onPick,
  price,
  free,
  speed,
}: {
  movieId: string;
  sizes: readonly MovieSize[];
  chosen: DownloadSize | null;
  onPick: (size: DownloadSize) => void;
  price: number;
  free: number | null;
  speed: number | null;
}) {
  const t = useDownloadsT();
  return (
    <fieldset className="mt-4">
      <legend className="sr-only">{t('downloads.size.legend')}</legend>
      <ul className="space-y-2">
        {sizes.map((s) => {
          const fits = spaceVerdict(s.bytes, 0, free).fits;
          const seconds = speed ? estimateSeconds(s.bytes, speed) : null;
          const id = `size-${movieId}-${s.size}`;
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
                  name={`size-${movieId}`}
                  value={s.size}
                  checked={chosen === s.size}
                  onChange={() => onPick(s.size)}
                  className="mt-1 size-4 shrink-0 accent-brand-700"
                />
                <span className="min-w-0">
                  <span className="block font-semibold">
                    {sizeName(s.size)} · {formatBytes(s.bytes)} · {costText(s.bytes, price)}
                  </span>
                  <span className="block text-sm text-stone-600 dark:text-stone-400">
                    {[
                      sizeDetail(s),
                      seconds !== null ? timeWords(seconds, 'toDownload') : null,
                      fits === false ? t('downloads.size.mayNotFitHere') : null,
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
  );
}
