import { formatBytes, isWatched } from '@filamu/shared';
import type { LocalDownload } from './engine/record.ts';
import { SPACE_MARGIN_BYTES } from './estimates.ts';
import { downloadsT } from './messages.ts';

/**
 * Smart storage (decision 0174): which watched movies the size choice offers to delete when space runs low, and
 * whether leaving the player removes the film under "Delete after watching". Pure, so the choices are tested alone.
 */
export interface WatchedFile {
  movieId: string;
  title: string;
  /** What deleting it frees: the file on this phone. */
  bytes: number;
  /** When the person was last in it (ms), to offer the longest-ago watched first. */
  watchedAt: number;
}

interface SavedPosition {
  positionSeconds: number;
  durationSeconds: number;
  updatedAt: number;
}

/**
 * Finished downloads on this phone whose film the person has watched (past 90 %, decision 0163), longest-ago watched
 * first: those are the least likely to be watched again. Unfinished downloads are never offered (the person is
 * still getting them), nor films only started.
 */
export function watchedOnPhone(
  records: readonly LocalDownload[],
  positions: Readonly<Record<string, SavedPosition | undefined>>,
): WatchedFile[] {
  const files: WatchedFile[] = [];
  for (const record of records) {
    const position = positions[record.movieId];
    if (record.state !== 'complete' || !position) continue;
    if (!isWatched(position.positionSeconds, position.durationSeconds)) continue;
    files.push({ movieId: record.movieId, title: record.title, bytes: record.size, watchedAt: position.updatedAt });
  }
  return files.sort((a, b) => a.watchedAt - b.watchedAt || a.title.localeCompare(b.title));
}

/** Bytes to free so that `needed` and the usual margin fit; 0 when they fit or the browser does not say. */
export function spaceShortfall(needed: number, free: number | null): number {
  if (free === null) return 0;
  return Math.max(0, needed + SPACE_MARGIN_BYTES - free);
}

/**
 * The movies ticked at first: longest-ago watched first until their sizes cover the shortfall (all of them when even
 * all together do not). Nothing is ticked when nothing is short.
 */
export function suggestedSelection(files: readonly WatchedFile[], shortfall: number): Set<string> {
  const picked = new Set<string>();
  let freed = 0;
  for (const file of files) {
    if (freed >= shortfall) break;
    picked.add(file.movieId);
    freed += file.bytes;
  }
  return picked;
}

export function bytesFreed(files: readonly WatchedFile[], selected: ReadonlySet<string>): number {
  return files.reduce((sum, file) => (selected.has(file.movieId) ? sum + file.bytes : sum), 0);
}

/** "Delete 2 movies · frees 1.4 GB": the button says what it does and what it gives back. */
export function deleteLabel(count: number, bytes: number): string {
  return downloadsT('downloads.freeUp.delete', { count, bytes: formatBytes(bytes) });
}

/** Where the player was when the person left it. */
export interface PlayerExit {
  /** False when the film never started (opened and closed): nothing was watched now. */
  started: boolean;
  positionSeconds: number;
  durationSeconds: number;
}

/**
 * "Delete after watching" removes the file when the person leaves the player past 90 % of a film they played this
 * time; never while it plays, and never for a film opened and closed that was watched another time.
 */
export function removesOnLeaving(deleteWatched: boolean, exit: PlayerExit): boolean {
  if (!deleteWatched || !exit.started || !Number.isFinite(exit.durationSeconds)) return false;
  return isWatched(exit.positionSeconds, exit.durationSeconds);
}
