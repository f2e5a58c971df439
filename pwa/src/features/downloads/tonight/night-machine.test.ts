import { kampalaLocalToDate, type NightWindow } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import {
  NIGHT_OFF,
  nextBoundary,
  nightStep,
  type NightEvent,
  type NightMode,
  type NightStep,
} from './night-machine.ts';

/** Kampala wall-clock time as the fake clock's instant. */
const at = (local: string) => kampalaLocalToDate(local).getTime();
const WINDOWS: NightWindow[] = [{ start: '00:00', end: '06:00' }];
const TONIGHT = { opensAt: at('2026-12-02T00:00'), closesAt: at('2026-12-02T06:00') };

/** Feeds the events in order; returns every step, so a test can read the effects of each. */
function drive(state: NightMode, ...events: NightEvent[]): NightStep[] {
  const steps: NightStep[] = [];
  for (const event of events) {
    const step = nightStep(steps.at(-1)?.state ?? state, event);
    steps.push(step);
  }
  return steps;
}

const kinds = (step: NightStep) => step.effects.map((e) => e.type);

describe('night mode', () => {
  it('opened in the evening, waits for the window with the screen held and starts nothing', () => {
    const [opened, early] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-01T21:30'), windows: WINDOWS },
      { type: 'tick', now: at('2026-12-01T23:59') },
    );
    expect(opened!.state.phase).toEqual({ at: 'waiting', night: TONIGHT });
    expect(kinds(opened!)).toEqual(['hold-screen']);
    expect(kinds(early!)).toEqual([]);
    expect(nextBoundary(early!.state, at('2026-12-01T23:59'))).toBe(TONIGHT.opensAt);
  });

  it('starts tonight’s films when the window opens while it waits, and allows them until its end', () => {
    const [, opens, later] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-01T21:30'), windows: WINDOWS },
      { type: 'tick', now: TONIGHT.opensAt },
      { type: 'tick', now: at('2026-12-02T03:00') },
    );
    expect(opens!.state.phase).toEqual({ at: 'downloading', night: TONIGHT });
    expect(opens!.effects).toEqual([{ type: 'start-films', night: TONIGHT }]);
    // Started once: a later tick in the same window does not start them again.
    expect(kinds(later!)).toEqual([]);
    expect(nextBoundary(later!.state, at('2026-12-02T03:00'))).toBe(TONIGHT.closesAt);
  });

  it('pauses the films when the window closes mid-download, lets the screen go and says the morning', () => {
    const [, , closes] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-01T21:30'), windows: WINDOWS },
      { type: 'tick', now: at('2026-12-02T00:00') },
      { type: 'tick', now: TONIGHT.closesAt },
    );
    expect(closes!.state.phase).toEqual({ at: 'morning', night: TONIGHT });
    expect(closes!.state.hold).toBeNull();
    expect(kinds(closes!)).toEqual(['pause-films', 'release-screen']);
    expect(nextBoundary(closes!.state, TONIGHT.closesAt)).toBeNull();
  });

  it('opened inside a window (the push’s tap at 00:00) starts the films at once', () => {
    const [opened] = drive(NIGHT_OFF, { type: 'open', now: at('2026-12-02T00:01'), windows: WINDOWS });
    expect(opened!.state.phase).toEqual({ at: 'downloading', night: TONIGHT });
    expect(kinds(opened!)).toEqual(['hold-screen', 'start-films']);
  });

  it('after a reload mid-window, holds the screen again and starts the films again, for the same night', () => {
    const [opened] = drive(NIGHT_OFF, { type: 'open', now: at('2026-12-02T00:01'), windows: WINDOWS });
    // What was kept in localStorage, read back as text.
    const kept = JSON.parse(JSON.stringify(opened!.state)) as NightMode;
    const [restored] = drive(kept, { type: 'restore', now: at('2026-12-02T02:30') });
    expect(restored!.state.phase).toEqual({ at: 'downloading', night: TONIGHT });
    expect(restored!.state.hold).toBe('asking');
    expect(restored!.effects).toEqual([{ type: 'hold-screen' }, { type: 'start-films', night: TONIGHT }]);
  });

  it('after a reload (or a sleep) past the window’s end, pauses the films rather than run them by day', () => {
    const [opened] = drive(NIGHT_OFF, { type: 'open', now: at('2026-12-01T22:00'), windows: WINDOWS });
    const [restored] = drive(opened!.state, { type: 'restore', now: at('2026-12-02T07:15') });
    expect(restored!.state.phase).toEqual({ at: 'morning', night: TONIGHT });
    expect(kinds(restored!)).toEqual(['pause-films', 'release-screen']);
  });

  it('says a refused or lost screen lock, and a lock held again on return', () => {
    const steps = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-01T22:00'), windows: WINDOWS },
      { type: 'hold', hold: 'refused' },
      { type: 'hold', hold: 'held' },
      { type: 'hold', hold: 'lost' },
    );
    expect(steps.map((s) => s.state.hold)).toEqual(['asking', 'refused', 'held', 'lost']);
    // A refused lock changes nothing else: night mode still waits, and still starts the films at the window.
    expect(steps[1]!.state.phase.at).toBe('waiting');
    const [opens] = drive(steps[1]!.state, { type: 'tick', now: TONIGHT.opensAt });
    expect(kinds(opens!)).toEqual(['start-films']);
  });

  it('stopped mid-window, pauses the films; stopped while waiting, has nothing to pause', () => {
    const [, stoppedRunning] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-02T01:00'), windows: WINDOWS },
      { type: 'stop' },
    );
    expect(stoppedRunning!.state).toEqual(NIGHT_OFF);
    expect(kinds(stoppedRunning!)).toEqual(['pause-films', 'release-screen']);
    const [, stoppedWaiting] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-01T22:00'), windows: WINDOWS },
      { type: 'stop' },
    );
    expect(kinds(stoppedWaiting!)).toEqual(['release-screen']);
  });

  it('opened again in the morning, waits for the next night', () => {
    const [, closes, again] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-02T05:00'), windows: WINDOWS },
      { type: 'tick', now: at('2026-12-02T06:00') },
      { type: 'open', now: at('2026-12-02T21:00'), windows: WINDOWS },
    );
    expect(closes!.state.phase.at).toBe('morning');
    expect(again!.state.phase).toEqual({
      at: 'waiting',
      night: { opensAt: at('2026-12-03T00:00'), closesAt: at('2026-12-03T06:00') },
    });
  });

  it('follows Kampala’s night on a phone whose clock is set to another time zone (the instants are the same)', () => {
    // 21:00 UTC is midnight in Kampala, whatever zone the phone displays.
    const [opened] = drive(NIGHT_OFF, { type: 'open', now: Date.UTC(2026, 11, 1, 21, 0), windows: WINDOWS });
    expect(opened!.state.phase).toEqual({ at: 'downloading', night: TONIGHT });
  });

  it('a window across midnight, and the second of two windows', () => {
    const windows: NightWindow[] = [
      { start: '23:00', end: '01:00' },
      { start: '03:00', end: '05:00' },
    ];
    const [first, closes, second] = drive(
      NIGHT_OFF,
      { type: 'open', now: at('2026-12-01T23:30'), windows },
      { type: 'tick', now: at('2026-12-02T01:00') },
      { type: 'open', now: at('2026-12-02T01:05'), windows },
    );
    expect(first!.state.phase).toEqual({
      at: 'downloading',
      night: { opensAt: at('2026-12-01T23:00'), closesAt: at('2026-12-02T01:00') },
    });
    expect(closes!.state.phase.at).toBe('morning');
    expect(second!.state.phase).toEqual({
      at: 'waiting',
      night: { opensAt: at('2026-12-02T03:00'), closesAt: at('2026-12-02T05:00') },
    });
  });
});
