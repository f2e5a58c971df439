import { describe, expect, it } from 'vitest';
import { summarizeDataUse, withBytes } from '../engine/data-days.ts';
import { NIGHT_OVER, outsideItsNight } from '../engine/night-rules.ts';
import { newDownload, transition, type DownloadEvent, type LocalDownload } from '../engine/record.ts';
import { morningReport } from './morning.ts';
import { bothPricesText, hoursText, timeUntilText } from './night-words.ts';
import { usedDataText } from '../sizes.ts';

const OPENS = 1_000_000;
const CLOSES = 2_000_000;

const fresh = (movieId = 'm1', title = 'Omusango'): LocalDownload => ({
  ...newDownload(
    {
      ownerId: 'user:u1',
      movieId,
      title,
      category: 'Kinayuganda',
      vj: 'VJ Junior',
      thumbnailUrl: null,
      size: 1000,
      sizeChoice: 'small',
      fileName: `${title}.mp4`,
    },
    0,
  ),
  state: 'paused',
  nightOnly: true,
  message: "Waiting for tonight's night bundle",
});

const committed = (bytes: number): DownloadEvent => ({
  type: 'committed',
  committed: bytes,
  etag: '"e"',
  bytesFromNetwork: bytes,
});

describe('a download for tonight', () => {
  it('waits paused, runs only between the window’s opening and its end, then pauses with its bytes kept', () => {
    const waiting = fresh();
    expect(outsideItsNight(waiting, OPENS - 1)).toBe(true);
    const open = transition(waiting, { type: 'night-open', until: CLOSES }, OPENS);
    expect(open).toMatchObject({ state: 'queued', nightUntil: CLOSES, message: null });
    expect(outsideItsNight(open, CLOSES - 1)).toBe(false);
    expect(outsideItsNight(open, CLOSES)).toBe(true);

    const running = transition(transition(open, { type: 'start' }, OPENS + 1), committed(400), OPENS + 2);
    expect(running.nightBytes).toBe(400);
    const closed = transition(running, { type: 'night-close', message: NIGHT_OVER }, CLOSES);
    expect(closed).toMatchObject({ state: 'paused', committed: 400, message: NIGHT_OVER, nightOnly: true });
    expect(outsideItsNight(closed, CLOSES)).toBe(true);
    // The transfer's last flush, written just after the stop, is of bytes that came in the window.
    expect(transition(closed, committed(450), CLOSES + 1000).nightBytes).toBe(450);
    // The next night it goes on from its bytes.
    const nextNight = transition(closed, { type: 'night-open', until: CLOSES + 86_400_000 }, 9);
    expect(nextNight).toMatchObject({ state: 'queued', committed: 400 });
  });

  it('counts as night bytes only those committed before the window’s end', () => {
    const open = transition(fresh(), { type: 'night-open', until: CLOSES }, OPENS);
    const early = transition(open, committed(300), CLOSES - 1);
    // The last flush after the stop still counts; a commit well after the end does not.
    const late = transition(early, committed(500), CLOSES + 60_000);
    expect(early.nightBytes).toBe(300);
    expect(late).toMatchObject({ bytesFromNetwork: 500, nightBytes: 300 });
  });

  it('is the person’s again when they pause or resume it by hand (their choice to spend day data)', () => {
    const resumed = transition(fresh(), { type: 'resume' }, 1);
    expect(resumed).toMatchObject({ state: 'queued', nightOnly: false });
    expect(outsideItsNight(resumed, 5)).toBe(false);
  });

  it('a film being verified at the window’s end finishes: its bytes are all here', () => {
    const verifying: LocalDownload = { ...fresh(), state: 'verifying', nightUntil: CLOSES, committed: 1000 };
    const after = transition(verifying, { type: 'night-close', message: NIGHT_OVER }, CLOSES);
    expect(after.state).toBe('verifying');
    expect(transition(after, { type: 'verified' }, CLOSES + 1).state).toBe('complete');
  });

  it('a download under way can be moved to tonight: it stops where it is', () => {
    const downloading: LocalDownload = { ...fresh(), nightOnly: undefined, state: 'downloading', committed: 200 };
    const moved = transition(downloading, { type: 'tonight', message: 'Waiting' }, 5);
    expect(moved).toMatchObject({ state: 'paused', nightOnly: true, committed: 200 });
  });
});

describe('the phone’s night data', () => {
  it('keeps the night part of each day and of the month', () => {
    const day = withBytes(
      withBytes(undefined, 'user:u1', Date.UTC(2026, 11, 1, 22), 180, 180),
      'user:u1',
      Date.UTC(2026, 11, 2, 6),
      10,
    );
    expect(day).toMatchObject({ bytes: 190, nightBytes: 180 });
    const use = summarizeDataUse([day], Date.UTC(2026, 11, 2, 9));
    expect(use).toMatchObject({ monthBytes: 190, monthNightBytes: 180 });
  });

  it('says it beside what a download used', () => {
    const MB = 2 ** 20;
    expect(usedDataText(190 * MB, 190 * MB, 180 * MB)).toBe('Used 190.0 MB of data · 180.0 MB at night prices');
    expect(usedDataText(190 * MB, 190 * MB, 0)).toBe('Used 190.0 MB of data');
  });
});

describe('the words', () => {
  it('both prices, the hours, the time to wait', () => {
    const plain = (s: string) => s.replaceAll('\u00a0', ' ');
    expect(plain(bothPricesText(190e6, 6000, 2000))).toBe('≈ UGX 1,100 now · ≈ UGX 400 tonight');
    expect(hoursText([{ start: '00:00', end: '06:00' }])).toBe('00:00–06:00');
    expect(
      hoursText([
        { start: '00:00', end: '06:00' },
        { start: '13:00', end: '14:00' },
      ]),
    ).toBe('00:00–06:00 and 13:00–14:00');
    expect(timeUntilText(2 * 3_600_000 + 10 * 60_000)).toBe('2 h 10 min');
    expect(timeUntilText(30_000)).toBe('1 min');
  });
});

describe('the morning', () => {
  it('says what arrived, what did not and why, and what the night bytes saved', () => {
    const night = { opensAt: OPENS, closesAt: Date.UTC(2026, 11, 2, 3) };
    const arrived: LocalDownload = { ...fresh('m1', 'Arrived'), state: 'complete', nightBytes: 600e6, committed: 1000 };
    const paused: LocalDownload = {
      ...fresh('m2', 'Halfway'),
      size: 400 * 2 ** 20,
      committed: 150 * 2 ** 20,
      nightBytes: 150e6,
      message: NIGHT_OVER,
    };
    const neverStarted = fresh('m3', 'Not started');
    const daytime: LocalDownload = { ...fresh('m4', 'By day'), nightOnly: false, state: 'complete' };
    const report = morningReport(
      [arrived, paused, neverStarted, daytime],
      night,
      { [arrived.key]: 0, [paused.key]: 0 },
      6000,
      2000,
    );
    expect(report.arrived.map((f) => f.title)).toEqual(['Arrived']);
    expect(report.notArrived.map((f) => [f.title, f.why])).toEqual([
      [
        'Halfway',
        'The night bundle ended at 06:00 before it finished (150.0 MB of 400.0 MB kept); the rest downloads next night.',
      ],
      ['Not started', 'It did not start: Filamu was not open in night mode when the night bundle began.'],
    ]);
    expect(report.nightBytes).toBe(750e6);
    // 750 MB × (6,000 − 2,000) / 10⁹.
    expect(report.savedUgx).toBe(3000);
  });
});
