import type { SubtitleSummary } from '@filamu/shared';
import { asc, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { movieSubtitles } from '../../db/schema.ts';

const summaryColumns = {
  movieId: movieSubtitles.movieId,
  language: movieSubtitles.language,
  label: movieSubtitles.label,
  bytes: movieSubtitles.bytes,
};

/** The subtitle languages (no texts) of the movies `where` picks, by movie, each list by language code. */
async function summariesByMovie(exec: Executor, where?: SQL): Promise<Map<string, SubtitleSummary[]>> {
  const rows = await exec
    .select(summaryColumns)
    .from(movieSubtitles)
    .where(where)
    .orderBy(asc(movieSubtitles.language));
  const byMovie = new Map<string, SubtitleSummary[]>();
  for (const { movieId, ...summary } of rows) {
    const list = byMovie.get(movieId) ?? [];
    list.push(summary);
    byMovie.set(movieId, list);
  }
  return byMovie;
}

/** The subtitle languages of these movies. */
export async function subtitlesOf(exec: Executor, movieIds: string[]): Promise<Map<string, SubtitleSummary[]>> {
  if (movieIds.length === 0) return new Map();
  return summariesByMovie(exec, inArray(movieSubtitles.movieId, movieIds));
}

/** Every movie's subtitle languages, for the catalogue snapshot (read in its transaction). */
export const allSubtitleSummaries = (exec: Executor) => summariesByMovie(exec);
