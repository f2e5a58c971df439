import { useId } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { formatClock } from '../positions.ts';
import { PLAYBACK_RATES } from './preferences.ts';
import { useWatchingT } from '../messages.ts';

export interface ControlsState {
  playing: boolean;
  current: number;
  duration: number;
  volume: number;
  muted: boolean;
  rate: number;
  fullscreen: boolean;
}

export interface ControlsActions {
  togglePlay: () => void;
  skip: (seconds: number) => void;
  seekTo: (seconds: number) => void;
  setVolume: (volume: number) => void;
  toggleMute: () => void;
  setRate: (rate: number) => void;
  /** A language code, or null for Off; remembered for the next film. */
  setSubtitles: (language: string | null) => void;
  toggleFullscreen: () => void;
}

const button =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-xl px-3 text-sm font-semibold ' +
  'bg-stone-200 text-stone-900 hover:bg-stone-300 dark:bg-stone-800 dark:text-stone-100 dark:hover:bg-stone-700';

/** The player's controls, big enough for a thumb, below the picture (never covering it), in both themes. */
export function PlayerControls({
  state,
  actions,
  playRef,
  inFullscreen,
  subtitles,
}: {
  state: ControlsState;
  actions: ControlsActions;
  playRef: React.Ref<HTMLButtonElement>;
  inFullscreen: boolean;
  subtitles: { tracks: { language: string; label: string }[]; shown: string | null };
}) {
  const t = useWatchingT();
  const speedId = useId();
  const subtitlesId = useId();
  const { playing, current, duration, volume, muted, rate, fullscreen } = state;
  const known = Number.isFinite(duration) && duration > 0;
  return (
    <div
      className={cn(
        'space-y-3 p-3 text-stone-900 dark:text-stone-100',
        inFullscreen ? 'bg-stone-950 text-white dark:bg-stone-950' : 'rounded-b-2xl bg-stone-100 dark:bg-stone-900',
      )}
    >
      <div className="flex items-center gap-3">
        <input
          type="range"
          min={0}
          max={known ? duration : 0}
          step={1}
          value={Math.min(current, known ? duration : 0)}
          disabled={!known}
          onChange={(event) => actions.seekTo(Number(event.target.value))}
          aria-label={t('watching.controls.position')}
          aria-valuetext={t('watching.controls.position.value', {
            current: formatClock(current),
            total: formatClock(known ? duration : 0),
          })}
          className="h-11 min-w-0 flex-1 accent-brand-700 dark:accent-brand-400"
        />
        <span className="shrink-0 text-sm tabular-nums" aria-hidden="true">
          {formatClock(current)} / {known ? formatClock(duration) : '–:––'}
        </span>
      </div>
      {/* Two rows that hold at 360 px: what a thumb uses most, then sound, speed and subtitles. Short labels on
          screen, the full name for screen readers. */}
      <div className="flex flex-wrap items-center gap-2">
        <button
          ref={playRef}
          type="button"
          className={cn(button, 'min-w-20')}
          onClick={actions.togglePlay}
          aria-label={playing ? t('watching.controls.pause') : t('watching.controls.play')}
        >
          {playing ? t('watching.controls.pause') : t('watching.controls.play')}
        </button>
        <button
          type="button"
          className={button}
          onClick={() => actions.skip(-10)}
          aria-label={t('watching.controls.back10')}
        >
          −10 s
        </button>
        <button
          type="button"
          className={button}
          onClick={() => actions.skip(10)}
          aria-label={t('watching.controls.forward10')}
        >
          +10 s
        </button>
        <button
          type="button"
          className={cn(button, 'ml-auto')}
          onClick={actions.toggleFullscreen}
          aria-label={fullscreen ? t('watching.controls.fullscreen.exit') : t('watching.controls.fullscreen')}
        >
          {fullscreen ? t('watching.controls.fullscreen.exitShort') : t('watching.controls.fullscreen')}
        </button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={button} onClick={actions.toggleMute} aria-pressed={muted}>
          {t('watching.controls.mute')}
        </button>
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={muted ? 0 : volume}
          onChange={(event) => actions.setVolume(Number(event.target.value))}
          aria-label={t('watching.controls.volume')}
          aria-valuetext={`${Math.round((muted ? 0 : volume) * 100)}%`}
          className="h-11 w-24 accent-brand-700 dark:accent-brand-400"
        />
        <label htmlFor={speedId} className="sr-only">
          {t('watching.controls.speed')}
        </label>
        <select
          id={speedId}
          value={rate}
          onChange={(event) => actions.setRate(Number(event.target.value))}
          className="min-h-11 rounded-xl border border-stone-300 bg-white px-2 text-sm dark:border-stone-600 dark:bg-stone-950"
        >
          {PLAYBACK_RATES.map((r) => (
            <option key={r} value={r}>
              {r}×
            </option>
          ))}
        </select>
        {subtitles.tracks.length > 0 && (
          <>
            <label htmlFor={subtitlesId} className="sr-only">
              {t('watching.controls.subtitles')}
            </label>
            <select
              id={subtitlesId}
              value={subtitles.shown ?? ''}
              onChange={(event) => actions.setSubtitles(event.target.value || null)}
              className="min-h-11 max-w-40 rounded-xl border border-stone-300 bg-white px-2 text-sm dark:border-stone-600 dark:bg-stone-950"
            >
              <option value="">{t('watching.controls.subtitles.off')}</option>
              {subtitles.tracks.map((track) => (
                <option key={track.language} value={track.language}>
                  {track.label}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
    </div>
  );
}
