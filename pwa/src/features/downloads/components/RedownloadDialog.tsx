import { contracts, type DownloadSize } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Modal, ModalDescription, ModalTitle } from '../../../components/ui/Modal.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-client.ts';
import { type DownloadableMovie, startDownload } from '../actions.ts';
import { noRedownloadsLeft, redownloadCost } from '../redownload-words.ts';
import { useDataPrice } from '../data-price.ts';
import { useStorageFigures } from '../hooks.ts';
import { setLastPickedSize, useDownloadSettings } from '../settings.ts';
import { measuredSpeed } from '../speed-memory.ts';
import { usePhoneSizes } from '../phone-sizes.ts';
import { preselectSize } from '../sizes.ts';
import { useDownloadsT } from '../messages.ts';
import { SizeOptions } from './SizeOptions.tsx';

/**
 * Download again, for a movie downloaded before whose file is not on this phone: says what it uses before it starts
 * (or, with none left, when they renew and that support can help), with the sizes and their price in data as for a
 * first download (issue 16/22 §5). The server decides; this only asks first.
 */
export function RedownloadDialog({
  movie,
  open,
  onClose,
}: {
  movie: DownloadableMovie;
  open: boolean;
  onClose: () => void;
}) {
  const t = useDownloadsT();
  const [busy, setBusy] = useState(false);
  const allowance = useQuery({
    queryKey: queryKeys.redownloads,
    queryFn: () => api(contracts.downloads.redownloadAllowance),
    enabled: open,
    staleTime: 0,
  });
  const cost = allowance.data ? redownloadCost(allowance.data) : null;
  const noneLeft = allowance.data !== undefined && cost === null;
  // A history entry does not know the sizes on offer: the movie's page does, asked once the dialog opens.
  const details = useQuery({
    queryKey: [...queryKeys.movies, 'detail', movie.id] as const,
    queryFn: async () => (await api(contracts.movies.userMovie, { params: { id: movie.id } })).movie,
    enabled: open && cost !== null && movie.sizes === undefined,
  });
  const allSizes = movie.sizes ?? details.data?.sizes ?? [];
  // Only what this phone plays: one Small (decision 0252); empty for the milliseconds the decoder is asked.
  const offered = usePhoneSizes(allSizes);
  const sizes = offered ?? [];
  const settings = useDownloadSettings();
  const price = useDataPrice();
  const storage = useStorageFigures(5000);
  const [speed] = useState(() => measuredSpeed());
  const [picked, setPicked] = useState<DownloadSize | null>(null);
  const chosen = picked ?? preselectSize(sizes, 'ask', settings.lastPickedSize);

  const confirm = async () => {
    setBusy(true);
    try {
      if (chosen) setLastPickedSize(chosen);
      await startDownload({ ...movie, sizes: allSizes }, { redownload: true, size: chosen ?? undefined });
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <Modal open={open} onClose={() => !busy && onClose()}>
      <ModalTitle>
        {noneLeft ? t('downloads.refusal.noRedownloads') : t('downloads.again.title', { title: movie.title })}
      </ModalTitle>
      <ModalDescription as="div" className="mt-2 space-y-2">
        <p>{t('downloads.again.text', { title: movie.title })}</p>
        {allowance.isPending && <p>{t('downloads.again.checking')}</p>}
        {allowance.isError && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {errorMessage(allowance.error, t('downloads.again.checkFailed'))}
          </p>
        )}
        {cost && <p className="font-semibold text-stone-900 dark:text-stone-100">{cost}</p>}
        {cost && sizes.length > 1 && (
          <SizeOptions
            movieId={movie.id}
            sizes={sizes}
            chosen={chosen}
            onPick={setPicked}
            price={price}
            free={storage?.free ?? null}
            speed={speed}
          />
        )}
        {noneLeft && (
          <p>
            {noRedownloadsLeft(allowance.data)}{' '}
            <Link
              to="/contact-us"
              className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
            >
              {t('downloads.again.support')}
            </Link>
          </p>
        )}
      </ModalDescription>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose} disabled={busy}>
          {cost ? t('downloads.copy.notNow') : t('downloads.close')}
        </Button>
        {cost && (
          <Button onClick={() => void confirm()} loading={busy || offered === null}>
            {t('downloads.button.again')}
          </Button>
        )}
      </div>
    </Modal>
  );
}
