import {
  DOWNLOAD_SIZE_LABELS,
  type DownloadHistoryEntry,
  type DownloadRecord,
  type DownloadSize,
} from '@filamu/shared';
import type { downloads } from '../../db/schema.ts';
import type { MovieRow } from '../movies/movie.ts';

export type DownloadRow = typeof downloads.$inferSelect;

/** Percent with one decimal; a finished download is 100 even if the file were empty. */
function percent(row: Pick<DownloadRow, 'downloadedBytes' | 'totalBytes' | 'status'>): number {
  if (row.status === 'completed' || row.totalBytes === 0) return row.status === 'completed' ? 100 : 0;
  return Math.floor((row.downloadedBytes / row.totalBytes) * 1000) / 10;
}

export function toDownloadRecord(row: DownloadRow): DownloadRecord {
  return {
    downloadId: row.id,
    movieId: row.movieId,
    status: row.status,
    progress: percent(row),
    downloadedBytes: row.downloadedBytes,
    totalBytes: row.totalBytes,
    resumedCount: row.resumedCount,
    size: row.size,
    fetchedBytes: row.fetchedBytes,
    canResume: row.status !== 'completed' || row.redownloadStartedAt !== null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export function toHistoryEntry(row: DownloadRow, movie: Pick<MovieRow, 'title' | 'category'>): DownloadHistoryEntry {
  return {
    downloadId: row.id,
    movieId: row.movieId,
    movieTitle: movie.title,
    movieSize: row.totalBytes,
    size: row.size,
    fetchedBytes: row.fetchedBytes,
    nightBytes: row.nightBytes,
    received: row.receivedAt !== null,
    category: movie.category,
    status: row.status,
    progress: percent(row),
    lastDownloadDate: (row.completedAt ?? row.lastActivityAt).toISOString(),
  };
}

/**
 * A file name for the saved movie: its title (made safe for file systems), the size when it is a rendition (so two
 * sizes of one movie never look alike on the phone) and the extension of the file downloaded.
 */
export function downloadFileName(movie: Pick<MovieRow, 'title'>, file: { key: string; size: DownloadSize }): string {
  const ext = file.key.slice(file.key.lastIndexOf('.'));
  const label = file.size === 'original' ? '' : ` (${DOWNLOAD_SIZE_LABELS[file.size]})`;
  const base = movie.title
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${base || 'movie'}${label}${ext}`;
}
