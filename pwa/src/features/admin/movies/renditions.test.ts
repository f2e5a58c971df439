import type { AdminRendition } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { anyEncoding, renditionLine, renditionText } from './renditions.ts';

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
    expect(renditionText({ ...base, state: 'failed', error: 'Invalid data found' })).toBe('Failed: Invalid data found');
    expect(renditionText({ ...base, state: 'failed' })).toBe('Failed: unknown reason');
  });

  it('names the size', () => {
    expect(renditionLine({ ...base, kind: 'hd' })).toBe('HD: Queued');
  });
});

describe('anyEncoding', () => {
  it('is true while a rendition is queued or encoding', () => {
    expect(anyEncoding([{ renditions: [{ ...base, state: 'ready' }] }])).toBe(false);
    expect(anyEncoding([{ renditions: [] }, { renditions: [{ ...base, state: 'encoding' }] }])).toBe(true);
    expect(anyEncoding(undefined)).toBe(false);
  });
});
