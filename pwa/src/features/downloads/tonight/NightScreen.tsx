import { useEffect, useState } from 'react';
import type { LocalDownload } from '../engine/record.ts';
import type { NightPhase, ScreenHold } from './night-machine.ts';
import type { NightPrices } from './night-bundle.ts';
import { hoursText, kampalaClock, timeUntilText } from './night-words.ts';
import { TonightFilms } from './TonightFilms.tsx';

/** The time now, again at each minute's turn (a clock to the minute needs no faster timer on a phone all night). */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), 60_000 - (now % 60_000));
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

const HOLD_WORDS: Record<ScreenHold, string> = {
  asking: 'Asking the phone to keep the screen on…',
  held: 'The screen stays on while Filamu is open. Keep the phone plugged in.',
  refused:
    'This phone would not keep the screen on (battery saver may be on). Turn battery saver off, or keep the screen on yourself: downloads stop when the screen locks.',
  lost: 'The screen was allowed to turn off while Filamu was hidden. Keep Filamu open on this screen: it asks again when you come back.',
  unsupported:
    'This browser cannot keep the screen on. Set the screen to stay on, or downloads stop when the screen locks.',
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
  const now = useMinuteClock();
  const { night } = phase;
  const status =
    phase.at === 'waiting'
      ? `The night bundle starts at ${kampalaClock(night.opensAt)}, in ${timeUntilText(night.opensAt - now)}. Nothing downloads before then.`
      : `Night bundle on until ${kampalaClock(night.closesAt)}: your films are downloading. They pause at ${kampalaClock(night.closesAt)} so no day data is used.`;
  const troubled = hold === 'refused' || hold === 'lost' || hold === 'unsupported';

  return (
    <div className="min-h-screen bg-black text-stone-300 [color-scheme:dark]" data-testid="night-screen">
      <main id="main" className="mx-auto flex max-w-md flex-col px-4 py-8">
        <h1 className="text-lg font-semibold text-stone-300">Night mode</h1>
        <p className="mt-6 text-center text-6xl font-light tabular-nums text-stone-300">
          <span className="sr-only">Time in Kampala: </span>
          {kampalaClock(now)}
        </p>
        <p role="status" className="mt-6 text-center text-stone-300" data-testid="night-status">
          {status}
        </p>
        <p className="mt-2 text-center text-sm text-stone-400">
          Night bundle hours {hoursText(prices.windows)} (Kampala time)
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
          {hold ? HOLD_WORDS[hold] : HOLD_WORDS.asking}
        </p>
        <h2 className="mt-8 text-base font-semibold text-stone-300">Tonight&rsquo;s films</h2>
        {films.length === 0 ? (
          <p className="mt-2 text-sm text-stone-400">No films are waiting for tonight.</p>
        ) : (
          <TonightFilms records={films} prices={prices} dim label="Tonight's films" />
        )}
        <button
          type="button"
          onClick={onStop}
          className="mt-10 self-center rounded-xl border border-stone-600 px-4 py-2 text-sm font-medium text-stone-300 hover:bg-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-300"
        >
          Stop night mode
        </button>
      </main>
    </div>
  );
}
