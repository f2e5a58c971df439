import { SUBTITLE_MAX_BYTES } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { subtitleFileProblem } from './subtitle-file.ts';

describe('the Subtitles section checks before sending', () => {
  it('accepts .srt and .vtt files within the limit', () => {
    expect(subtitleFileProblem({ name: 'Film.SRT', size: 20_000 }, 'lg')).toBeNull();
    expect(subtitleFileProblem({ name: 'film.vtt', size: SUBTITLE_MAX_BYTES }, 'en')).toBeNull();
  });

  it('asks for a language, a file, the right kind and size', () => {
    expect(subtitleFileProblem({ name: 'film.srt', size: 10 }, '')).toContain('language code');
    expect(subtitleFileProblem({ name: 'film.srt', size: 10 }, 'luganda please')).toContain('language code such as');
    expect(subtitleFileProblem(null, 'en')).toBe('Choose an .srt or .vtt file.');
    expect(subtitleFileProblem({ name: 'film.ass', size: 10 }, 'en')).toBe('Choose an .srt or .vtt file.');
    expect(subtitleFileProblem({ name: 'film.srt', size: SUBTITLE_MAX_BYTES + 1 }, 'en')).toContain('at most 512 KB');
  });
});
