import type { SubtitleSummary } from '@filamu/shared';
import { asc, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { movieSubtitles } from '../../db/schema.ts';

const summaryColumns = {
  movieId: movieSubtitles.movieId,
  language: movieSubtitles.language,
  label: movieSubtitles.label,
  bytes: movieSubtitles.bytes,
};

/** The subtitle languages of these movies (no texts), by movie, each list by language code. */
export async function subtitlesOf(exec: Executor, movieIds: string[]): Promise<Map<string, SubtitleSummary[]>> {
  const byMovie = new Map<string, SubtitleSummary[]>();
  if (movieIds.length === 0) return byMovie;
  const rows = await exec
    .select(summaryColumns)
    .from(movieSubtitles)
    .where(inArray(movieSubtitles.movieId, movieIds))
    .orderBy(asc(movieSubtitles.language));
  for (const { movieId, ...summary } of rows) {
    const list = byMovie.get(movieId) ?? [];
    list.push(summary);
    byMovie.set(movieId, list);
  }
  return byMovie;
}

/** Every movie's subtitle languages, for the catalogue snapshot (read in its transaction). */
export async function allSubtitleSummaries(exec: Executor): Promise<Map<string, SubtitleSummary[]>> {
  const rows = await exec.select(summaryColumns).from(movieSubtitles).orderBy(asc(movieSubtitles.language));
  const byMovie = new Map<string, SubtitleSummary[]>();
  for (const { movieId, ...summary } of rows) {
    const list = byMovie.get(movieId) ?? [];
    list.push(summary);
    byMovie.set(movieId, list);
  }
  return byMovie;
}
