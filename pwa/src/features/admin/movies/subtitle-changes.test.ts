import { describe, expect, it } from 'vitest';
import {
  hasSubtitleChanges,
  NO_SUBTITLE_CHANGES,
  stageAdd,
  stageRemoval,
  subtitleRows,
  undoRemoval,
} from './subtitle-changes.ts';

/** The edit dialog's subtitle changes wait for Save: what the list shows and what Save will send. */
const attached = [{ language: 'en', label: 'English', bytes: 900 }];
const file = (language: string, fileName = `${language}.srt`) => ({ language, fileName, bytes: 120, text: 'WEBVTT' });

describe('staged subtitle changes', () => {
  it('adds, replaces and removes only on paper, showing each as what Save will do', () => {
    let changes = stageAdd(NO_SUBTITLE_CHANGES, file('lg'));
    changes = stageAdd(changes, file('en', 'new-english.vtt'));
    expect(subtitleRows(attached, changes)).toEqual([
      { language: 'en', label: 'English', bytes: 120, fileName: 'new-english.vtt', status: 'replace' },
      { language: 'lg', label: 'Luganda', bytes: 120, fileName: 'lg.srt', status: 'add' },
    ]);
    // Remove on a chosen file drops it; the attached English comes back as it is.
    changes = stageRemoval(changes, 'en', true);
    changes = stageRemoval(changes, 'lg', false);
    expect(changes).toEqual(NO_SUBTITLE_CHANGES);
    expect(hasSubtitleChanges(changes)).toBe(false);
    expect(subtitleRows(attached, changes).map((r) => r.status)).toEqual(['saved']);
  });

  it('removes an attached language on save, undoes it, and a new file for it takes the removal’s place', () => {
    const removed = stageRemoval(NO_SUBTITLE_CHANGES, 'en', true);
    expect(removed).toEqual({ adds: [], removals: ['en'] });
    expect(stageRemoval(removed, 'en', true)).toBe(removed);
    expect(subtitleRows(attached, removed)[0]!.status).toBe('remove');
    expect(undoRemoval(removed, 'en')).toEqual(NO_SUBTITLE_CHANGES);
    expect(stageAdd(removed, file('en'))).toEqual({ adds: [file('en')], removals: [] });
    // A second file for the same language replaces the first one chosen.
    expect(stageAdd(stageAdd(NO_SUBTITLE_CHANGES, file('sw', 'a.srt')), file('sw', 'b.srt')).adds).toEqual([
      file('sw', 'b.srt'),
    ]);
  });
});
