import { nextNightWindow, type NightWindow } from '@filamu/shared';

/**
 * The one state machine of night mode (issue 21/22 §2), pure: every decision is a function of the state, the event and
 * the instant it happened, so its tests drive it with a fake clock. `night-mode.ts` feeds it the clock, the screen
 * lock's news and the person's taps, and carries out the effects it names.
 *
 *   off ─(open)─▶ waiting ─(window opens)─▶ downloading ─(window closes)─▶ morning ─(open)─▶ waiting …
 *         └──────(open inside a window)──────▶ downloading
 *   any ─(stop)─▶ off (a window still open: tonight's films pause, their bytes kept)
 *
 * The screen lock is told apart, because it comes and goes on its own: held, refused (battery saver, no API), lost (the
 * page was hidden), each said in words by the screen.
 */

/** One occurrence of a night window, in ms. */
export interface NightSpanMs {
  opensAt: number;
  closesAt: number;
}

export type NightPhase =
  | { at: 'off' }
  /** Night mode is on; the window has not opened yet. */
  | { at: 'waiting'; night: NightSpanMs }
  /** The window is open: tonight's films are downloading. */
  | { at: 'downloading'; night: NightSpanMs }
  /** The window closed with night mode on: the morning report of that night. */
  | { at: 'morning'; night: NightSpanMs };

/** The screen wake lock as the person is told of it. */
export type ScreenHold = 'asking' | 'held' | 'refused' | 'lost' | 'unsupported';

export interface NightMode {
  phase: NightPhase;
  /** The windows in force when night mode was opened (kept, so a reload with no connection still knows them). */
  windows: NightWindow[];
  /** Null while night mode holds no screen (off, or the morning). */
  hold: ScreenHold | null;
}

export type NightEvent =
  /** The person opens night mode (or taps the window-start push). */
  | { type: 'open'; now: number; windows: NightWindow[] }
  /** Time passed (a timer, the page coming back, a reload reading the kept state). */
  | { type: 'tick'; now: number }
  /** The page was reloaded: the kept state is read again and its effects redone. */
  | { type: 'restore'; now: number }
  | { type: 'hold'; hold: ScreenHold }
  /** The person leaves night mode. */
  | { type: 'stop' };

export type NightEffect =
  /** Tonight's films go in the queue, allowed to run until the window's end. */
  | { type: 'start-films'; night: NightSpanMs }
  /** Tonight's films still running stop where they are (bytes kept). */
  | { type: 'pause-films' }
  | { type: 'hold-screen' }
  | { type: 'release-screen' };

export interface NightStep {
  state: NightMode;
  effects: NightEffect[];
}

export const NIGHT_OFF: NightMode = { phase: { at: 'off' }, windows: [], hold: null };

const spanMs = (windows: readonly NightWindow[], now: number): NightSpanMs => {
  const span = nextNightWindow(windows, new Date(now));
  return { opensAt: span.opensAt.getTime(), closesAt: span.closesAt.getTime() };
};

/** Where night mode stands at `now` for the night it is about: before, inside or after that window. */
function settle(state: NightMode, now: number, restored: boolean): NightStep {
  const { phase } = state;
  if (phase.at === 'off' || phase.at === 'morning') return { state, effects: [] };
  const { night } = phase;
  if (now >= night.closesAt) {
    // The window is over (the phone may have slept through all of it): tonight's films never run by day.
    return {
      state: { ...state, phase: { at: 'morning', night }, hold: null },
      effects: [{ type: 'pause-films' }, { type: 'release-screen' }],
    };
  }
  if (now >= night.opensAt) {
    const opened = phase.at === 'waiting';
    const next: NightMode = opened ? { ...state, phase: { at: 'downloading', night } } : state;
    return {
      state: next,
      effects: [
        ...(restored ? [{ type: 'hold-screen' as const }] : []),
        ...(opened || restored ? [{ type: 'start-films' as const, night }] : []),
      ],
    };
  }
  return { state, effects: restored ? [{ type: 'hold-screen' }] : [] };
}

export function nightStep(state: NightMode, event: NightEvent): NightStep {
  switch (event.type) {
    case 'open': {
      if (state.phase.at === 'waiting' || state.phase.at === 'downloading') {
        // Opened again (the push's tap, a second visit): the same night, its films made sure to run.
        return settle(state, event.now, true);
      }
      const opened: NightMode = {
        phase: { at: 'waiting', night: spanMs(event.windows, event.now) },
        windows: event.windows,
        hold: 'asking',
      };
      const step = settle(opened, event.now, false);
      return { state: step.state, effects: [{ type: 'hold-screen' }, ...step.effects] };
    }
    case 'tick':
      return settle(state, event.now, false);
    case 'restore':
      return settle(state.hold === null ? state : { ...state, hold: 'asking' }, event.now, true);
    case 'hold':
      if (state.phase.at !== 'waiting' && state.phase.at !== 'downloading') return { state, effects: [] };
      return { state: { ...state, hold: event.hold }, effects: [] };
    case 'stop':
      return {
        state: NIGHT_OFF,
        effects: [
          ...(state.phase.at === 'downloading' ? [{ type: 'pause-films' as const }] : []),
          { type: 'release-screen' },
        ],
      };
  }
}

/** When the machine must next be ticked: the window's opening or closing, whichever comes first after `now`. */
export function nextBoundary(state: NightMode, now: number): number | null {
  const { phase } = state;
  if (phase.at === 'waiting') return Math.max(now, phase.night.opensAt);
  if (phase.at === 'downloading') return Math.max(now, phase.night.closesAt);
  return null;
}
