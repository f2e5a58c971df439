import { useEffect, useState } from 'react';
import type { LocalDownload } from '../engine/record.ts';
import type { NightPhase, ScreenHold } from './night-machine.ts';
import type { NightPrices } from './night-bundle.ts';
import { hoursText, kampalaClock, timeUntilText } from './night-words.ts';
import { TonightFilms } from './TonightFilms.tsx';
import { useDownloadsNightT, type DownloadsNightMessageId } from './messages.ts';

/** The time now, again at each minute's turn (a clock to the minute needs no faster timer on a phone all night). */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), 60_000 - (now % 60_000));
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

const HOLD_WORDS: Record<ScreenHold, DownloadsNightMessageId> = {
  asking: 'downloads-night.hold.asking',
  held: 'downloads-night.hold.held',
  refused: 'downloads-night.hold.refused',
  lost: 'downloads-night.hold.lost',
  unsupported: 'downloads-night.hold.unsupported',
};

/**
 * Night mode's dark, dimmed screen (issue 21/22 §2): a clock, what the night is doing, whether the screen is held, and
 * tonight's films. Dark whatever the theme, so a bedroom stays dark; its words keep their contrast all the same.
 */
export function NightScreen({
  phase,
  hold,
  films,
  prices,
  onStop,
}: {
  phase: Extract<NightPhase, { at: 'waiting' | 'downloading' }>;
  hold: ScreenHold | null;
  films: LocalDownload[];
  prices: NightPrices;
  onStop: () => void;
}) {
  const t = useDownloadsNightT();
  const now = useMinuteClock();
  const { night } = phase;
  const status =
    phase.at === 'waiting'
      ? t('downloads-night.status.waiting', {
          time: kampalaClock(night.opensAt),
          wait: timeUntilText(night.opensAt - now),
        })
      : t('downloads-night.status.on', { time: kampalaClock(night.closesAt) });
  const troubled = hold === 'refused' || hold === 'lost' || hold === 'unsupported';

  return (
    <div className="min-h-screen bg-black text-stone-300 [color-scheme:dark]" data-testid="night-screen">
      <main id="main" className="mx-auto flex max-w-md flex-col px-4 py-8">
        <h1 className="text-lg font-semibold text-stone-300">{t('downloads-night.title')}</h1>
        <p className="mt-6 text-center text-6xl font-light tabular-nums text-stone-300">
          <span className="sr-only">{t('downloads-night.clock')} </span>
          {kampalaClock(now)}
        </p>
        <p role="status" className="mt-6 text-center text-stone-300" data-testid="night-status">
          {status}
        </p>
        <p className="mt-2 text-center text-sm text-stone-400">
          {t('downloads-night.hours', { hours: hoursText(prices.windows) })}
        </p>
        <p
          role={troubled ? 'alert' : 'status'}
          data-testid="screen-hold"
          className={
            troubled
              ? 'mt-6 rounded-xl border border-amber-700 p-3 text-sm text-amber-200'
              : 'mt-6 text-sm text-stone-400'
          }
        >
          {t(hold ? HOLD_WORDS[hold] : HOLD_WORDS.asking)}
        </p>
        <h2 className="mt-8 text-base font-semibold text-stone-300">{t('downloads-night.films')}</h2>
        {films.length === 0 ? (
          <p className="mt-2 text-sm text-stone-400">{t('downloads-night.none')}</p>
        ) : (
          <TonightFilms records={films} prices={prices} dim label={t('downloads-night.films')} />
        )}
        <button
          type="button"
          onClick={onStop}
          className="mt-10 self-center rounded-xl border border-stone-600 px-4 py-2 text-sm font-medium text-stone-300 hover:bg-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-300"
        >
          {t('downloads-night.stop')}
        </button>
      </main>
    </div>
  );
}
