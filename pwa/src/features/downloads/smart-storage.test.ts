import { describe, expect, it } from 'vitest';
import { newDownload, type LocalDownload, type LocalState } from './engine/record.ts';
import { SPACE_MARGIN_BYTES } from './estimates.ts';
import {
  bytesFreed,
  deleteLabel,
  removesOnLeaving,
  spaceShortfall,
  suggestedSelection,
  watchedOnPhone,
} from './smart-storage.ts';

const MB = 1024 ** 2;

function record(movieId: string, size: number, state: LocalState = 'complete'): LocalDownload {
  const base = newDownload(
    {
      ownerId: 'user:1',
      movieId,
      title: `Movie ${movieId}`,
      category: 'Kinayuganda',
      vj: 'VJ Junior',
      thumbnailUrl: null,
      size,
      fileName: `${movieId}.mp4`,
    },
    0,
  );
  return { ...base, state, committed: state === 'complete' ? size : 0 };
}

const at = (positionSeconds: number, updatedAt: number) => ({ positionSeconds, durationSeconds: 100, updatedAt });

describe('watchedOnPhone', () => {
  it('offers finished downloads watched past 90 %, longest-ago watched first, with the bytes each frees', () => {
    const records = [record('a', 300 * MB), record('b', 700 * MB), record('c', 200 * MB), record('d', 100 * MB)];
    const positions = { a: at(95, 3000), b: at(90, 1000), c: at(89, 500) };
    expect(watchedOnPhone(records, positions)).toEqual([
      { movieId: 'b', title: 'Movie b', bytes: 700 * MB, watchedAt: 1000 },
      { movieId: 'a', title: 'Movie a', bytes: 300 * MB, watchedAt: 3000 },
    ]);
  });

  it('never offers a download still under way, even one watched on another phone', () => {
    const records = [record('a', 300 * MB, 'downloading'), record('b', 300 * MB, 'paused')];
    expect(watchedOnPhone(records, { a: at(100, 1), b: at(100, 1) })).toEqual([]);
  });
});

describe('spaceShortfall', () => {
  it('is what is missing for the size and the margin, and nothing when it fits or nobody says', () => {
    expect(spaceShortfall(500 * MB, 300 * MB)).toBe(200 * MB + SPACE_MARGIN_BYTES);
    expect(spaceShortfall(500 * MB, 500 * MB)).toBe(SPACE_MARGIN_BYTES);
    expect(spaceShortfall(500 * MB, 500 * MB + SPACE_MARGIN_BYTES)).toBe(0);
    expect(spaceShortfall(500 * MB, 4000 * MB)).toBe(0);
    expect(spaceShortfall(500 * MB, null)).toBe(0);
  });
});

describe('suggestedSelection and bytesFreed', () => {
  const files = watchedOnPhone([record('a', 300 * MB), record('b', 700 * MB), record('c', 200 * MB)], {
    a: at(100, 1),
    b: at(100, 2),
    c: at(100, 3),
  });

  it('ticks the longest-ago watched until the shortfall is covered', () => {
    expect([...suggestedSelection(files, 250 * MB)]).toEqual(['a']);
    expect([...suggestedSelection(files, 301 * MB)]).toEqual(['a', 'b']);
    expect(bytesFreed(files, suggestedSelection(files, 301 * MB))).toBe(1000 * MB);
  });

  it('ticks them all when even all do not cover it, and none when nothing is short', () => {
    expect([...suggestedSelection(files, 5000 * MB)]).toEqual(['a', 'b', 'c']);
    expect(suggestedSelection(files, 0).size).toBe(0);
    expect(bytesFreed(files, new Set())).toBe(0);
  });

  it('totals only the ticked ones', () => {
    expect(bytesFreed(files, new Set(['a', 'c']))).toBe(500 * MB);
  });
});

describe('deleteLabel', () => {
  it('says how many and how much', () => {
    expect(deleteLabel(1, 300 * MB)).toBe('Delete 1 movie · frees 300.0 MB');
    expect(deleteLabel(2, 1000 * MB + 0.5 * 1024 * MB)).toBe('Delete 2 movies · frees 1.5 GB');
  });
});

describe('removesOnLeaving', () => {
  const exit = { started: true, positionSeconds: 95, durationSeconds: 100 };
  it('removes a film played past 90 % this time, only with the switch on', () => {
    expect(removesOnLeaving(true, exit)).toBe(true);
    expect(removesOnLeaving(true, { ...exit, positionSeconds: 90 })).toBe(true);
    expect(removesOnLeaving(false, exit)).toBe(false);
  });

  it('keeps a film left before 90 %, one opened and closed, and one whose length is unknown', () => {
    expect(removesOnLeaving(true, { ...exit, positionSeconds: 89 })).toBe(false);
    expect(removesOnLeaving(true, { ...exit, started: false })).toBe(false);
    expect(removesOnLeaving(true, { ...exit, durationSeconds: Number.NaN })).toBe(false);
  });
});
