import type { NightWindow } from '@filamu/shared';
import { create } from 'zustand';
import { readLocal, writeLocal } from '../../../lib/local-storage.ts';
import { shownOwnerId } from '../../../lib/owner.ts';
import { STORAGE_KEYS } from '../../../lib/storage-names.ts';
import { NIGHT_OVER } from '../engine/night-rules.ts';
import { RUNNABLE_STATES } from '../engine/record.ts';
import { dispatch, listDownloads } from '../engine/store.ts';
import { kick } from '../manager.ts';
import {
  NIGHT_OFF,
  nextBoundary,
  nightStep,
  type NightEffect,
  type NightEvent,
  type NightMode,
} from './night-machine.ts';
import { mirrorTonight } from './queue.ts';
import { holdScreen } from './wake-lock.ts';

/**
 * Night mode on this phone: the machine of `night-machine.ts` with its clock (`Date.now` and timers, which a test's
 * fake clock controls), its screen lock and the downloads it starts and pauses. It lives outside any screen and is
 * kept in localStorage, so a reload mid-night picks up the same night; the screens only render `useNightMode`.
 */
interface NightModeState extends NightMode {
  /** Whose films night mode runs. */
  ownerId: string | null;
  /** The films started this night, with their night bytes then (the morning counts what came since). */
  films: Record<string, number>;
}

const OFF: NightModeState = { ...NIGHT_OFF, ownerId: null, films: {} };

export const useNightMode = create<NightModeState>(() => OFF);

/** Checks the clock this often too: timers on a sleeping phone are late, and a test's clock may jump. */
const TICK_EVERY_MS = 30_000;

let boundary: ReturnType<typeof setTimeout> | undefined;
let ticker: ReturnType<typeof setInterval> | undefined;
let releaseScreen: (() => void) | null = null;
let lifecycleInstalled = false;

function keep(state: NightModeState): void {
  writeLocal(STORAGE_KEYS.nightMode, state.phase.at === 'off' ? null : JSON.stringify(state));
}

function kept(ownerId: string): NightModeState | null {
  const raw = readLocal(STORAGE_KEYS.nightMode);
  if (!raw) return null;
  try {
    const state = JSON.parse(raw) as NightModeState;
    return state.ownerId === ownerId && state.phase && Array.isArray(state.windows) ? state : null;
  } catch {
    return null;
  }
}

function apply(event: NightEvent): void {
  const before = useNightMode.getState();
  const { state, effects } = nightStep(before, event);
  const next: NightModeState = {
    ...state,
    ownerId: state.phase.at === 'off' ? null : before.ownerId,
    films: state.phase.at === 'off' ? {} : before.films,
  };
  useNightMode.setState(next, true);
  keep(next);
  schedule(next);
  // Whose films: the night's person, even when this step turned night mode off (a stop pauses their films).
  for (const effect of effects) void carryOut(effect, before.ownerId);
}

/** The next tick at the window's next edge, and a slow one besides while night mode is on. */
function schedule(state: NightModeState): void {
  clearTimeout(boundary);
  const at = nextBoundary(state, Date.now());
  if (at === null) {
    clearInterval(ticker);
    ticker = undefined;
    return;
  }
  boundary = setTimeout(tick, Math.max(0, at - Date.now()));
  ticker ??= setInterval(tick, TICK_EVERY_MS);
}

const tick = () => apply({ type: 'tick', now: Date.now() });

async function carryOut(effect: NightEffect, ownerId: string | null): Promise<void> {
  switch (effect.type) {
    case 'hold-screen':
      releaseScreen?.();
      releaseScreen = holdScreen((hold) => apply({ type: 'hold', hold }));
      return;
    case 'release-screen':
      releaseScreen?.();
      releaseScreen = null;
      return;
    case 'start-films': {
      if (!ownerId) return;
      const films = { ...useNightMode.getState().films };
      for (const record of await listDownloads(ownerId)) {
        if (!record.nightOnly || record.state === 'complete' || record.state === 'cancelled') continue;
        const started = await dispatch(record.key, { type: 'night-open', until: effect.night.closesAt });
        if (started?.nightUntil === effect.night.closesAt && !(record.key in films))
          films[record.key] = record.nightBytes ?? 0;
      }
      useNightMode.setState({ films });
      keep(useNightMode.getState());
      kick();
      return;
    }
    case 'pause-films': {
      if (!ownerId) return;
      for (const record of await listDownloads(ownerId)) {
        if (record.nightOnly && RUNNABLE_STATES.has(record.state)) {
          await dispatch(record.key, { type: 'night-close', message: NIGHT_OVER });
        }
      }
      void mirrorTonight();
      return;
    }
  }
}

function installLifecycle(): void {
  if (lifecycleInstalled) return;
  lifecycleInstalled = true;
  // Back from the background (or a sleep): the clock may have passed an edge while timers were frozen.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && useNightMode.getState().phase.at !== 'off') tick();
  });
}

/** The person starts night mode (or taps the push): waits for the window, or starts tonight's films if it is open. */
export function openNightMode(windows: NightWindow[]): void {
  const ownerId = shownOwnerId();
  if (!ownerId) return;
  installLifecycle();
  const current = useNightMode.getState();
  if (current.ownerId !== ownerId) useNightMode.setState({ ...OFF, ownerId }, true);
  else if (current.phase.at === 'morning' || current.phase.at === 'off') useNightMode.setState({ films: {} });
  useNightMode.setState({ ownerId });
  apply({ type: 'open', now: Date.now(), windows });
}

/** The person leaves night mode: films still running in a window pause (bytes kept) and wait for the next night. */
export function stopNightMode(): void {
  apply({ type: 'stop' });
}

/**
 * At app start and on a change of person: night mode as it was kept, its effects redone (a reload mid-window starts
 * tonight's films again; a window that ended meanwhile pauses them).
 */
export function restoreNightMode(): void {
  const ownerId = shownOwnerId();
  const current = useNightMode.getState();
  if (current.phase.at !== 'off' && current.ownerId === ownerId) return;
  const saved = ownerId ? kept(ownerId) : null;
  if (!saved) {
    if (current.phase.at !== 'off') {
      releaseScreen?.();
      releaseScreen = null;
      useNightMode.setState(OFF, true);
      schedule(OFF);
    }
    return;
  }
  installLifecycle();
  useNightMode.setState(saved, true);
  apply({ type: 'restore', now: Date.now() });
}
