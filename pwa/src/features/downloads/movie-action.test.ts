import { KINAYUGANDA_FIRST } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { newDownload, type LocalDownload, type LocalState } from './engine/record.ts';
import { movieAction, percentOf, type MovieActionInput } from './movie-action.ts';

const SIZE = 1000;

function local(state: LocalState, patch: Partial<LocalDownload> = {}): LocalDownload {
  const record = newDownload(
    {
      ownerId: 'user:u1',
      movieId: 'm1',
      title: 'Kigambo',
      category: 'Kinayuganda',
      vj: 'VJ Junior',
      thumbnailUrl: null,
      size: SIZE,
      fileName: 'Kigambo.mp4',
    },
    0,
  );
  return { ...record, state, ...patch };
}

function action(input: Partial<MovieActionInput>) {
  return movieAction({
    access: 'downloadable',
    size: SIZE,
    serverDownload: null,
    local: undefined,
    checking: false,
    ...input,
  });
}

describe('percentOf', () => {
  it('floors to whole percent and stays within 0–100', () => {
    expect(percentOf(0, SIZE)).toBe(0);
    expect(percentOf(999, SIZE)).toBe(99);
    expect(percentOf(1000, SIZE)).toBe(100);
    expect(percentOf(5000, SIZE)).toBe(100);
    expect(percentOf(10, 0)).toBe(0);
  });
});

describe('movieAction from the server verdict alone', () => {
  it('Download Now for a downloadable movie', () => {
    expect(action({})).toEqual({ kind: 'download', label: 'Download Now' });
  });

  it('Subscribe Now without a subscription', () => {
    expect(action({ access: 'subscription_required' })).toEqual({ kind: 'subscribe', label: 'Subscribe Now' });
  });

  it('Download Locked with the product reason while Kinayuganda movies are left', () => {
    expect(action({ access: 'locked' })).toEqual({
      kind: 'locked',
      label: 'Download Locked',
      reason: KINAYUGANDA_FIRST,
    });
  });

  it('Not in your plan', () => {
    expect(action({ access: 'not_in_plan' })).toEqual({ kind: 'not-in-plan', label: 'Not in your plan' });
  });

  it('Not on this phone (never "Downloaded") when it was downloaded but the file is not here', () => {
    expect(action({ access: 'downloaded' })).toEqual({ kind: 'not-on-phone', label: 'Not on this phone' });
  });

  it('Resume for a download the server holds part of (another session or device)', () => {
    expect(action({ serverDownload: { status: 'paused', downloadedBytes: 400, totalBytes: SIZE } })).toMatchObject({
      kind: 'resume',
      label: 'Resume',
      percent: 40,
      reason: null,
    });
    // Falls back to the catalogue size when the server has no total yet.
    expect(action({ serverDownload: { status: 'downloading', downloadedBytes: 250, totalBytes: 0 } })).toMatchObject({
      kind: 'resume',
      percent: 25,
    });
  });

  it('Download Now when the server row has no bytes yet', () => {
    expect(action({ serverDownload: { status: 'starting', downloadedBytes: 0, totalBytes: SIZE } })).toMatchObject({
      kind: 'download',
    });
  });
});

describe('movieAction with this phone’s download', () => {
  it('Checking... while the grant is asked for', () => {
    expect(action({ checking: true })).toEqual({ kind: 'checking', label: 'Checking...' });
    expect(action({ checking: true, local: local('paused') })).toMatchObject({ kind: 'checking' });
  });

  it('On this phone (playable) once the file is complete here, whatever else is going on', () => {
    const complete = local('complete', { committed: SIZE });
    expect(action({ local: complete })).toEqual({ kind: 'on-phone', label: 'On this phone' });
    expect(action({ local: complete, checking: true, access: 'downloaded' })).toMatchObject({ kind: 'on-phone' });
    expect(action({ local: complete, access: 'subscription_required' })).toMatchObject({ kind: 'on-phone' });
  });

  it('Downloading... N% from the live byte count when it is ahead of the last commit', () => {
    expect(action({ local: local('downloading', { committed: 300 }) })).toEqual({
      kind: 'downloading',
      label: 'Downloading... 30%',
      percent: 30,
      waiting: null,
    });
    expect(action({ local: local('downloading', { committed: 300 }), received: 455 })).toMatchObject({
      label: 'Downloading... 45%',
      percent: 45,
    });
    expect(action({ local: local('downloading', { committed: 300 }), received: 100 })).toMatchObject({ percent: 30 });
  });

  it('names what a download is waiting for', () => {
    const waitingOf = (state: LocalState) => {
      const result = action({ local: local(state, { committed: 100 }) });
      return result.kind === 'downloading' ? result.waiting : `not downloading (${result.kind})`;
    };
    expect(waitingOf('queued')).toBe('Queued');
    expect(waitingOf('waiting-network')).toBe('Waiting for network');
    expect(waitingOf('needs-url')).toBe('Reconnecting');
    expect(waitingOf('verifying')).toBe('Finishing');
    expect(waitingOf('downloading')).toBeNull();
  });

  it('labels a waiting download by what it waits for, never "Downloading... 0%" beside "Queued"', () => {
    expect(action({ local: local('queued', { committed: 0 }) })).toMatchObject({ label: 'Queued', percent: 0 });
    expect(action({ local: local('waiting-network', { committed: 250 }) })).toMatchObject({
      label: 'Waiting for network · 25%',
    });
  });

  it('Resume for a paused download, with the reason when there is one', () => {
    expect(action({ local: local('paused', { committed: 500 }) })).toEqual({
      kind: 'resume',
      label: 'Resume',
      percent: 50,
      reason: null,
    });
    const noSpace = local('needs-space', { committed: 200, message: 'Not enough space on this phone.' });
    expect(action({ local: noSpace })).toMatchObject({
      kind: 'resume',
      percent: 20,
      reason: 'Not enough space on this phone.',
    });
  });

  it('Resume after a failure only while the server still allows the download', () => {
    const failed = local('failed', { committed: 700, message: 'Server error' });
    expect(action({ local: failed })).toMatchObject({ kind: 'resume', percent: 70, reason: 'Server error' });
    expect(action({ local: failed, access: 'downloaded' })).toMatchObject({ kind: 'not-on-phone' });
    expect(action({ local: failed, access: 'subscription_required' })).toMatchObject({ kind: 'subscribe' });
    expect(action({ local: failed, access: 'locked' })).toMatchObject({ kind: 'locked' });
  });

  it('ignores a cancelled record', () => {
    expect(action({ local: local('cancelled', { committed: 900 }) })).toEqual({
      kind: 'download',
      label: 'Download Now',
    });
  });

  it('uses the catalogue size while the record has none', () => {
    expect(action({ local: local('downloading', { committed: 250, size: 0 }) })).toMatchObject({ percent: 25 });
  });
});
