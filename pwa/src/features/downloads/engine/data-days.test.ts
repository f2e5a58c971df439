import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { summarizeDataUse, withBytes, type DataDay } from './data-days.ts';
import { newDownload } from './record.ts';
import { createDownload, deleteDownload, dispatch, getDownload, listDataDays } from './store.ts';

/** The data a phone received per Kampala day and month (decision 0216). Kampala is UTC+3: its midnight is 21:00 UTC. */
const at = (iso: string) => Date.parse(iso);
const day = (ownerId: string, date: string, bytes: number): DataDay => ({
  key: `${ownerId}|${date}`,
  ownerId,
  day: date,
  bytes,
});

describe('data used per day and month', () => {
  it('puts bytes on the Kampala day they arrived: 21:00 UTC is already the next day', () => {
    expect(withBytes(undefined, 'user:a', at('2026-10-31T20:59:59.999Z'), 5).day).toBe('2026-10-31');
    expect(withBytes(undefined, 'user:a', at('2026-10-31T21:00:00.000Z'), 5).day).toBe('2026-11-01');
    const row = withBytes(undefined, 'user:a', at('2026-11-01T08:00:00Z'), 5);
    expect(withBytes(row, 'user:a', at('2026-11-01T20:00:00Z'), 7)).toEqual(day('user:a', '2026-11-01', 12));
    // A row of another day is never added to.
    expect(withBytes(row, 'user:a', at('2026-11-02T08:00:00Z'), 7)).toEqual(day('user:a', '2026-11-02', 7));
  });

  it('totals this Kampala month and the last, with this month’s days most recent first', () => {
    const rows = [
      day('user:a', '2026-10-01', 100),
      day('user:a', '2026-10-31', 400),
      day('user:a', '2026-11-01', 1000),
      day('user:a', '2026-11-03', 30),
      day('user:a', '2026-11-02', 0),
      day('user:a', '2026-09-30', 9),
    ];
    // 00:30 on 1 November in Kampala, still 31 October in UTC.
    expect(summarizeDataUse(rows, at('2026-10-31T21:30:00Z'))).toEqual({
      month: '2026-11',
      monthBytes: 1030,
      days: [
        { day: '2026-11-03', bytes: 30 },
        { day: '2026-11-01', bytes: 1000 },
      ],
      lastMonth: '2026-10',
      lastMonthBytes: 500,
      monthNightBytes: 0,
      lastMonthNightBytes: 0,
    });
    // 23:59 on 31 October in Kampala: October is this month.
    const october = summarizeDataUse(rows, at('2026-10-31T20:59:00Z'));
    expect(october).toMatchObject({ month: '2026-10', monthBytes: 500, lastMonth: '2026-09', lastMonthBytes: 9 });
    expect(october.days.map((d) => d.day)).toEqual(['2026-10-31', '2026-10-01']);
  });

  it('compares January with the December before it, and says nothing for a month without data', () => {
    const rows = [day('user:a', '2025-12-31', 70)];
    expect(summarizeDataUse(rows, at('2026-01-15T09:00:00Z'))).toEqual({
      month: '2026-01',
      monthBytes: 0,
      days: [],
      lastMonth: '2025-12',
      lastMonthBytes: 70,
      monthNightBytes: 0,
      lastMonthNightBytes: 0,
    });
  });
});

describe('the day totals in the downloads store', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const download = async (ownerId: string) => {
    const input = { ownerId, movieId: randomUUID(), title: 'Kasuku', category: 'English' as const, vj: 'VJ Emmy' };
    const record = newDownload({ ...input, thumbnailUrl: null, size: 1000, fileName: 'Kasuku.mp4' }, 1);
    return createDownload(record);
  };

  it('counts every byte received, re-fetched ones too, on the day it arrived, and keeps it after a delete', async () => {
    const ownerId = `user:${randomUUID()}`;
    const stored = await download(ownerId);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at('2026-10-31T20:58:00Z'));
    await dispatch(stored.key, { type: 'start' });
    await dispatch(stored.key, { type: 'committed', committed: 400, etag: '"e1"', bytesFromNetwork: 400 });
    // The file changed on the server: the 400 bytes held are discarded, the whole file comes again after midnight.
    vi.setSystemTime(at('2026-10-31T20:59:30Z'));
    await dispatch(stored.key, { type: 'committed', committed: 0, etag: '"e2"', bytesFromNetwork: 400 });
    vi.setSystemTime(at('2026-10-31T21:01:00Z'));
    await dispatch(stored.key, { type: 'committed', committed: 600, etag: '"e2"', bytesFromNetwork: 1000 });
    await dispatch(stored.key, { type: 'committed', committed: 1000, etag: '"e2"', bytesFromNetwork: 1400 });

    const record = await getDownload(stored.key);
    const rows = await listDataDays(ownerId);
    expect(rows.map((r) => [r.day, r.bytes]).sort()).toEqual([
      ['2026-10-31', 400],
      ['2026-11-01', 1000],
    ]);
    const use = summarizeDataUse(rows, Date.now());
    // What the phone received in all equals the download's own count, 400 bytes of it fetched twice.
    expect(use.monthBytes + use.lastMonthBytes).toBe(record!.bytesFromNetwork);
    expect(use).toMatchObject({ month: '2026-11', monthBytes: 1000, lastMonthBytes: 400 });

    // Deleting the film does not give the data back.
    await deleteDownload(stored.key);
    expect(await listDataDays(ownerId)).toHaveLength(2);
  });

  it('counts what a Background Fetch received before it gave up, and nothing for events that receive nothing', async () => {
    const ownerId = `user:${randomUUID()}`;
    const stored = await download(ownerId);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at('2026-11-05T09:00:00Z'));
    await dispatch(stored.key, { type: 'start' });
    await dispatch(stored.key, { type: 'committed', committed: 100, etag: null, bytesFromNetwork: 100 });
    await dispatch(stored.key, { type: 'background-started' });
    await dispatch(stored.key, { type: 'background-ended', paused: false, received: 250 });
    await dispatch(stored.key, { type: 'pause' });
    // A second word of the same ending (the page and the service worker both saw it) is not counted twice.
    await dispatch(stored.key, { type: 'background-ended', paused: false, received: 250 });

    expect((await getDownload(stored.key))?.bytesFromNetwork).toBe(350);
    expect((await listDataDays(ownerId)).map((r) => [r.day, r.bytes])).toEqual([['2026-11-05', 350]]);
    // Another person on the same phone has their own count.
    expect(await listDataDays(`user:${randomUUID()}`)).toEqual([]);
  });
});
