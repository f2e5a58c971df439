import { describe, expect, it } from 'vitest';
import { dayWords, displayOrder, formatSpeed, monthWords, stateWords } from './describe.ts';
import { newDownload, type LocalDownload } from './engine/record.ts';

function record(movieId: string, patch: Partial<LocalDownload>): LocalDownload {
  const base = newDownload(
    {
      ownerId: 'user:u1',
      movieId,
      title: movieId,
      category: 'Kinayuganda',
      vj: 'N/A',
      thumbnailUrl: null,
      size: 100,
      fileName: `${movieId}.mp4`,
    },
    0,
  );
  return { ...base, ...patch };
}

describe('downloads in words', () => {
  it('names every state, with the reason where there is one', () => {
    expect(stateWords({ state: 'waiting-network', message: null })).toBe('Waiting for network');
    expect(stateWords({ state: 'needs-url', message: null })).toBe('Reconnecting');
    expect(stateWords({ state: 'verifying', message: null })).toBe('Finishing');
    expect(stateWords({ state: 'complete', message: null })).toBe('Downloaded');
    expect(stateWords({ state: 'failed', message: 'Movie file is missing.' })).toBe('Failed: Movie file is missing.');
    expect(stateWords({ state: 'needs-space', message: null })).toMatch(/^Not enough space/);
  });

  it('gives the speed', () => {
    expect(formatSpeed(1536)).toBe('1.5 KB/s');
  });

  it('lists unfinished downloads first as queued, then finished ones newest first', () => {
    const order = displayOrder([
      record('old-done', { state: 'complete', createdAt: 1, completedAt: 10 }),
      record('second', { state: 'paused', createdAt: 3 }),
      record('new-done', { state: 'complete', createdAt: 2, completedAt: 20 }),
      record('first', { state: 'downloading', createdAt: 2 }),
    ]).map((r) => r.movieId);
    expect(order).toEqual(['first', 'second', 'new-done', 'old-done']);
  });
});

describe('days and months of data used', () => {
  it('says Today and Yesterday by Kampala’s clock, then the weekday and date', () => {
    // 00:30 on Sunday 1 November 2026 in Kampala; still Saturday 31 October in UTC.
    const now = Date.parse('2026-10-31T21:30:00Z');
    expect(dayWords('2026-11-01', now)).toBe('Today');
    expect(dayWords('2026-10-31', now)).toBe('Yesterday');
    expect(dayWords('2026-10-30', now)).toBe('Fri 30 Oct');
    expect(monthWords('2026-11')).toBe('November 2026');
  });
});
