import { describe, expect, it } from 'vitest';
import { initialUploadState, isRunning, percentOf, transition, type UploadEvent, type UploadState } from './machine.ts';

const run = (events: UploadEvent[], from: UploadState = initialUploadState) => events.reduce(transition, from);

describe('upload item state machine', () => {
  it('goes queued → uploading thumbnail → movie → processing → completed at 100 %', () => {
    const thumb = run([{ type: 'start', phase: 'thumbnail', totalBytes: 100 }]);
    expect(thumb).toMatchObject({ status: 'uploading', phase: 'thumbnail' });
    const movie = run(
      [
        { type: 'start', phase: 'movie', totalBytes: 1000 },
        { type: 'progress', sentBytes: 250, speedBps: 50 },
      ],
      thumb,
    );
    expect(movie).toMatchObject({ status: 'uploading', phase: 'movie', sentBytes: 250, speedBps: 50 });
    expect(percentOf(movie)).toBe(25);
    expect(isRunning(movie)).toBe(true);
    const processing = transition(movie, { type: 'uploaded' });
    expect(processing.status).toBe('processing');
    expect(percentOf(processing)).toBe(100);
    const done = transition(processing, { type: 'saved' });
    expect(done.status).toBe('completed');
    expect(isRunning(done)).toBe(false);
  });

  it('resumes a movie from the bytes its finished parts hold', () => {
    const resumed = run([{ type: 'start', phase: 'movie', totalBytes: 1000, sentBytes: 600 }]);
    expect(percentOf(resumed)).toBe(60);
  });

  it('fails with a message from any active state, clears it on Retry, and ignores nonsense', () => {
    const uploading = run([{ type: 'start', phase: 'movie', totalBytes: 10 }]);
    const failed = transition(uploading, { type: 'fail', message: 'The connection dropped' });
    expect(failed).toMatchObject({ status: 'failed', errorMessage: 'The connection dropped', speedBps: 0 });
    expect(transition(failed, { type: 'progress', sentBytes: 5, speedBps: 1 })).toBe(failed);
    expect(transition(failed, { type: 'saved' })).toBe(failed);
    expect(transition(failed, { type: 'retry' })).toMatchObject({ status: 'queued', errorMessage: null });
    const done = run([{ type: 'uploaded' }, { type: 'saved' }]);
    expect(transition(done, { type: 'fail', message: 'x' })).toBe(done);
    expect(transition(done, { type: 'file-lost' })).toBe(done);
    expect(transition(initialUploadState, { type: 'saved' })).toBe(initialUploadState);
  });

  it('waits for the file after a reload and carries on once it is picked again', () => {
    const uploading = run([{ type: 'start', phase: 'movie', totalBytes: 10 }]);
    const lost = transition(uploading, { type: 'file-lost' });
    expect(lost.status).toBe('needs-file');
    expect(isRunning(lost)).toBe(false);
    expect(transition(lost, { type: 'file-found' }).status).toBe('queued');
    expect(transition(lost, { type: 'retry' })).toBe(lost);
  });

  it('caps progress at the total and never goes below zero', () => {
    const s = run([{ type: 'start', phase: 'movie', totalBytes: 10 }]);
    expect(transition(s, { type: 'progress', sentBytes: 50, speedBps: 1 }).sentBytes).toBe(10);
    expect(transition(s, { type: 'progress', sentBytes: -5, speedBps: 1 }).sentBytes).toBe(0);
  });
});
