import type { MovieSize, PublicMovie, SubtitleSummary } from '@filamu/shared';
import { absoluteUrl } from '../../http/origin.ts';
import type { MovieRow } from '../movies/movie.ts';
import { posterSrcset, widestPosterKey } from '../posters/srcset.ts';
import type { Config } from '../../config.ts';
import type { ObjectStorage } from '../storage/storage.ts';

interface ViewDeps {
  storage: ObjectStorage;
  config: Config;
}

/**
 * A thumbnail's URL as clients use it as is (product §2 Admin Movies): the CDN or the local public path
 * when there is one, otherwise a signed link (S3 without a CDN); null when the movie has none.
 */
async function thumbnailUrl(deps: ViewDeps, key: string | null, origin: string): Promise<string | null> {
  if (!key) return null;
  const url =
    deps.storage.publicUrl(key) ??
    (await deps.storage.presignGet(key, { expiresInSeconds: deps.config.storage.downloadUrlTtlSeconds }));
  return absoluteUrl(url, origin);
}

/**
 * The fields every reader of a movie sees; admin and personal views add theirs to these. `sizes`: its ready
 * renditions smallest first, then the original (`sizesOf(filesOf(…))`); `subtitles`: its languages.
 */
export async function toPublicMovie(
  deps: ViewDeps,
  movie: MovieRow,
  sizes: MovieSize[],
  subtitles: SubtitleSummary[],
  origin: string,
): Promise<PublicMovie> {
  return {
    id: movie.id,
    title: movie.title,
    description: movie.description,
    category: movie.category,
    vj: movie.vj,
    rating: movie.rating,
    certificate_number: movie.certificateNumber,
    certificate_date: movie.certificateDate,
    // Without an admin's thumbnail, the poster made from a frame of the video (decision 0143).
    thumbnail_url: await thumbnailUrl(deps, movie.thumbnailKey ?? widestPosterKey(movie.posterVariants), origin),
    thumbnail_srcset: await posterSrcset(movie.posterVariants, (key) => thumbnailUrl(deps, key, origin)),
    size: movie.sizeBytes,
    sizes,
    subtitles,
    duration_seconds: movie.durationSeconds === null ? null : Math.round(movie.durationSeconds),
    created_at: movie.createdAt.toISOString(),
  };
}
