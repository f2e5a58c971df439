import { describe, expect, it } from 'vitest';
import { copyName, safeFileTitle } from './keep-copy.ts';

describe('the name of a kept copy', () => {
  it('is the title with .filamu when the film is held encrypted', () => {
    expect(copyName({ title: 'Kasuku', fileName: 'kasuku-720p.mp4', fileNonce: 'AAAAAAAAAAA' })).toBe('Kasuku.filamu');
  });

  it('is the name it was downloaded under for a plain file stored before encryption', () => {
    expect(copyName({ title: 'Kasuku', fileName: 'Kasuku.mp4', fileNonce: null })).toBe('Kasuku.mp4');
    expect(copyName({ title: 'Kasuku', fileName: 'Kasuku.mp4' })).toBe('Kasuku.mp4');
  });

  it('keeps letters of any script and drops what a file system refuses or reads as a path or extension', () => {
    expect(safeFileTitle('Mr. Bean: Holiday / Part 2?')).toBe('Mr Bean Holiday Part 2');
    expect(safeFileTitle('../../etc/passwd')).toBe('etc passwd');
    expect(safeFileTitle('Omukwano gwa Nnalongo — Ép 2')).toBe('Omukwano gwa Nnalongo Ép 2');
    expect(safeFileTitle('...')).toBe('Film');
    expect(safeFileTitle('A'.repeat(300))).toHaveLength(100);
  });
});
