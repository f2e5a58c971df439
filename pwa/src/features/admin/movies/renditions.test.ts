import type { AdminRendition } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { anyEncoding, encryptionBacklog, renditionLine, renditionText } from './renditions.ts';

const base: AdminRendition = {
  kind: 'small',
  state: 'queued',
  progress: 0,
  etaSeconds: null,
  sizeBytes: null,
  width: null,
  height: null,
  error: null,
  updatedAt: '2026-11-24T10:00:00.000Z',
};

describe('renditionText', () => {
  it('says each state in the console words', () => {
    expect(renditionText(base)).toBe('Queued');
    expect(renditionText({ ...base, state: 'encoding', progress: 0.428, etaSeconds: 170 })).toBe(
      'Encoding 42 % · 3 min left',
    );
    expect(renditionText({ ...base, state: 'encoding', progress: 0.1 })).toBe('Encoding 10 %');
    expect(renditionText({ ...base, state: 'ready', sizeBytes: 290 * 1024 ** 2 })).toBe('Ready · 290.0 MB');
    expect(renditionText({ ...base, state: 'skipped' })).toBe('Skipped (source smaller)');
    expect(renditionText({ ...base, state: 'skipped', error: 'This ffmpeg cannot encode HEVC.' })).toBe(
      'Skipped: This ffmpeg cannot encode HEVC.',
    );
    expect(renditionText({ ...base, state: 'failed', error: 'Invalid data found' })).toBe('Failed: Invalid data found');
    expect(renditionText({ ...base, state: 'failed' })).toBe('Failed: unknown reason');
  });

  it('names the size, telling the two Smalls apart', () => {
    expect(renditionLine({ ...base, kind: 'hd' })).toBe('HD: Queued');
    expect(renditionLine({ ...base, kind: 'small' })).toBe('Small (H.264): Queued');
    expect(renditionLine({ ...base, kind: 'small-hevc' })).toBe('Small (HEVC): Queued');
  });
});

const done = { encrypted: 2, files: 2 };

describe('anyEncoding', () => {
  it('is true while a rendition is queued or encoding, or a file waits to be encrypted', () => {
    expect(anyEncoding([{ renditions: [{ ...base, state: 'ready' }], encryption: done }])).toBe(false);
    expect(
      anyEncoding([
        { renditions: [], encryption: done },
        { renditions: [{ ...base, state: 'encoding' }], encryption: done },
      ]),
    ).toBe(true);
    expect(anyEncoding([{ renditions: [], encryption: { encrypted: 1, files: 2 } }])).toBe(true);
    expect(anyEncoding(undefined)).toBe(false);
  });
});

describe('encryptionBacklog', () => {
  it('sums the library’s files and says nothing once every one is encrypted', () => {
    expect(encryptionBacklog([{ encryption: done }, { encryption: { encrypted: 0, files: 3 } }])).toEqual({
      encrypted: 2,
      files: 5,
    });
    expect(encryptionBacklog([{ encryption: done }])).toBeNull();
    expect(encryptionBacklog(undefined)).toBeNull();
  });
});
