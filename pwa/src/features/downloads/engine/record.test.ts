import { describe, expect, it } from 'vitest';
import {
  completedSinceSeen,
  MAX_HARD_ATTEMPTS,
  newDownload,
  transition,
  type DownloadEvent,
  type LocalDownload,
} from './record.ts';

const base = newDownload(
  {
    ownerId: 'user:u1',
    movieId: 'm1',
    title: 'Omusango',
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    thumbnailUrl: null,
    size: 1000,
    fileName: 'Omusango.mp4',
  },
  0,
);

function run(record: LocalDownload, ...events: DownloadEvent[]): LocalDownload {
  return events.reduce((r, e, i) => transition(r, e, i + 1), record);
}

const granted: DownloadEvent = {
  type: 'granted',
  downloadId: 'd1',
  url: '/files/movies/x.mp4?sig',
  urlExpiresAt: 10_000,
  size: 1000,
  etag: '"e1"',
  fileNonce: 'AAECAwQFBgc',
  fileKind: 'small',
};

describe('download state machine', () => {
  it('goes queued → downloading → verifying → complete, ending with every byte and no link', () => {
    const done = run(
      base,
      granted,
      { type: 'start' },
      { type: 'committed', committed: 1000, etag: '"e1"', bytesFromNetwork: 1000 },
      { type: 'bytes-done' },
      { type: 'verified' },
    );
    expect(done).toMatchObject({ state: 'complete', committed: 1000, url: null, downloadId: 'd1', completedAt: 5 });
  });

  it('keeps the committed bytes through a drop, a lapsed link and a pause, and counts resumes', () => {
    const r = run(
      base,
      granted,
      { type: 'start' },
      { type: 'committed', committed: 400, etag: '"e1"', bytesFromNetwork: 400 },
      { type: 'offline' },
      { type: 'start' },
      { type: 'link-lapsed' },
      { type: 'pause' },
    );
    expect(r).toMatchObject({ state: 'paused', committed: 400, url: null, resumes: 1 });
    expect(run(r, { type: 'resume' }).state).toBe('queued');
  });

  it('ignores a pause after completion and progress after cancelling', () => {
    const done = run(base, granted, { type: 'bytes-done' }, { type: 'verified' });
    expect(transition(done, { type: 'pause' }, 9)).toBe(done);
    const cancelled = run(base, granted, { type: 'cancel' });
    expect(transition(cancelled, { type: 'committed', committed: 10, etag: null, bytesFromNetwork: 10 }, 9)).toBe(
      cancelled,
    );
  });

  it('fails after the third hard error in a row, and a resume starts the count again', () => {
    let r = run(base, granted, { type: 'start' });
    for (let i = 1; i < MAX_HARD_ATTEMPTS; i += 1) {
      r = run(r, { type: 'hard-error', message: 'HTTP status: 400' });
      expect(r.state).toBe('queued');
    }
    r = run(r, { type: 'hard-error', message: 'HTTP status: 400' });
    expect(r).toMatchObject({ state: 'failed', message: 'HTTP status: 400' });
    expect(run(r, { type: 'resume' })).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('keeps the file’s manifest only while it names the file held (decision 0243)', () => {
    const done = run(base, { type: 'start' }, granted, { type: 'bytes-done' }, { type: 'verified' });
    expect(done.fileKind).toBe('small');
    const kept = run(done, { type: 'manifest', manifest: 'a.b.c', fileNonce: 'AAECAwQFBgc' });
    expect(kept.manifest).toBe('a.b.c');
    // A manifest of another file (the film re-encoded since the request left) is not this film's.
    expect(run(done, { type: 'manifest', manifest: 'x.y.z', fileNonce: 'BBECAwQFBgc' }).manifest).toBeUndefined();
  });

  it('keeps the shorter offset when the phone runs out of space', () => {
    const r = run(
      base,
      granted,
      { type: 'committed', committed: 600, etag: '"e1"', bytesFromNetwork: 600 },
      { type: 'no-space', committed: 600 },
    );
    expect(r).toMatchObject({ state: 'needs-space', committed: 600 });
    expect(r.message).toMatch(/space/);
  });
});

describe('completedSinceSeen', () => {
  const complete = run(base, granted, { type: 'bytes-done' }, { type: 'verified' });
  it('announces a film this page saw downloading and now reads finished', () => {
    expect(completedSinceSeen(run(base, { type: 'start' }), complete, true)).toBe(true);
  });
  it('announces a small film created and finished before this page first read it', () => {
    expect(completedSinceSeen(undefined, complete, true)).toBe(true);
  });
  it('stays quiet for a film already finished here, for one still downloading, and while the list loads', () => {
    expect(completedSinceSeen(complete, complete, true)).toBe(false);
    expect(completedSinceSeen(undefined, run(base, { type: 'start' }), true)).toBe(false);
    expect(completedSinceSeen(undefined, complete, false)).toBe(false);
    expect(completedSinceSeen(run(base, { type: 'start' }), undefined, true)).toBe(false);
  });
});
