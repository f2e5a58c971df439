import { subtitleLabelOf, type SubtitleSummary } from '@filamu/shared';

/**
 * Subtitle changes made in the edit dialog and not yet saved: files chosen and languages removed wait for "Save
 * changes", and Cancel drops them (issue 30 polish). Nothing here talks to the server.
 */
export interface StagedSubtitle {
  language: string;
  fileName: string;
  bytes: number;
  /** The file's text, read when it was chosen (the server converts and checks it on save). */
  text: string;
}

export interface SubtitleChanges {
  adds: StagedSubtitle[];
  /** Languages attached on the server that Save removes. */
  removals: string[];
}

export const NO_SUBTITLE_CHANGES: SubtitleChanges = { adds: [], removals: [] };

export function hasSubtitleChanges(changes: SubtitleChanges): boolean {
  return changes.adds.length > 0 || changes.removals.length > 0;
}

/** A file chosen for a language: it takes the place of one chosen before, and of a removal of that language. */
export function stageAdd(changes: SubtitleChanges, add: StagedSubtitle): SubtitleChanges {
  return {
    adds: [...changes.adds.filter((a) => a.language !== add.language), add],
    removals: changes.removals.filter((l) => l !== add.language),
  };
}

/** Remove on a row: a chosen file is simply dropped; an attached language is removed on save. */
export function stageRemoval(changes: SubtitleChanges, language: string, attached: boolean): SubtitleChanges {
  const staged = changes.adds.some((a) => a.language === language);
  if (staged) return { ...changes, adds: changes.adds.filter((a) => a.language !== language) };
  if (!attached || changes.removals.includes(language)) return changes;
  return { ...changes, removals: [...changes.removals, language] };
}

export function undoRemoval(changes: SubtitleChanges, language: string): SubtitleChanges {
  return { ...changes, removals: changes.removals.filter((l) => l !== language) };
}

/** What a row of the list says: attached as saved, or what Save will do to it. */
export type SubtitleRowStatus = 'saved' | 'add' | 'replace' | 'remove';

export interface SubtitleRow {
  language: string;
  label: string;
  bytes: number;
  fileName: string | null;
  status: SubtitleRowStatus;
}

/** The list the admin sees: what is attached, as Save would leave it (removals still shown, to undo). */
export function subtitleRows(attached: readonly SubtitleSummary[], changes: SubtitleChanges): SubtitleRow[] {
  const rows: SubtitleRow[] = attached.map((s) => {
    const add = changes.adds.find((a) => a.language === s.language);
    if (add)
      return { language: s.language, label: s.label, bytes: add.bytes, fileName: add.fileName, status: 'replace' };
    const status = changes.removals.includes(s.language) ? 'remove' : 'saved';
    return { language: s.language, label: s.label, bytes: s.bytes, fileName: null, status };
  });
  for (const add of changes.adds) {
    if (attached.some((s) => s.language === add.language)) continue;
    rows.push({
      language: add.language,
      label: subtitleLabelOf(add.language),
      bytes: add.bytes,
      fileName: add.fileName,
      status: 'add',
    });
  }
  return rows;
}
