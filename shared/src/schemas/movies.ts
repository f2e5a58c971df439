import { z } from 'zod';
import { IsoDateTime } from './common.ts';
import { DownloadSize, MovieSize } from './renditions.ts';
import { ParentalHides } from './parental-pin.ts';
import { MovieRating } from './ratings.ts';
import { SubtitleSummary } from './subtitles.ts';

export const MOVIE_CATEGORY_NAMES = ['Kinayuganda', 'English'] as const;

/** Category as people type it (any case) → the canonical name. */
export const MovieCategory = z
  .string({ message: 'Choose a category: Kinayuganda or English.' })
  .max(40, 'Choose a category: Kinayuganda or English.')
  .trim()
  .transform((value, ctx) => {
    const match = MOVIE_CATEGORY_NAMES.find((name) => name.toLowerCase() === value.toLowerCase());
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'Choose a category: Kinayuganda or English.' });
      return z.NEVER;
    }
    return match;
  });
export type MovieCategoryName = (typeof MOVIE_CATEGORY_NAMES)[number];

export const UPLOAD_FOLDERS = ['movies', 'thumbnails'] as const;

export const MOVIE_TITLE_REQUIRED = 'Please fill out the movie title and select a movie file.';
export const VJ_REQUIRED = 'Please fill out the VJ/Uploader field.';
export const PLAN_REQUIRED = 'Please select at least one subscription plan for this movie.';

/** Fields every reader of a movie sees. `thumbnail_url` is already resolved (CDN, local or signed URL). */
export const MovieFields = {
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  category: z.enum(MOVIE_CATEGORY_NAMES),
  vj: z.string(),
  rating: MovieRating,
  certificate_number: z.string().nullable(),
  /** `YYYY-MM-DD`. */
  certificate_date: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  /** The poster in small WebP widths for `<img srcset>` (`url 160w, url 320w`); null until they are made. */
  thumbnail_srcset: z.string().nullable(),
  /** The original's size in bytes (the spec's field). */
  size: z.number().int(),
  /** Every size the movie can be downloaded in now, smallest first (ready renditions, then the original). */
  sizes: z.array(MovieSize),
  /** Its subtitle languages (decision 0172), by language code. */
  subtitles: z.array(SubtitleSummary),
  /** Its running time in whole seconds, as ffprobe read it; null when it was saved without a probe. */
  duration_seconds: z.number().int().nullable(),
  created_at: IsoDateTime,
};

export const PublicMovie = z.object(MovieFields);
export type PublicMovie = z.infer<typeof PublicMovie>;

export const DownloadStatus = z.enum(['not_started', 'starting', 'downloading', 'paused', 'completed', 'failed']);
export type DownloadStatus = z.infer<typeof DownloadStatus>;

/**
 * What the caller may do with a movie, decided by the server:
 * downloadable (also resumable), downloaded (done once, never again), locked (English while entitled
 * Kinayuganda movies are still to download), not_in_plan, subscription_required.
 */
export const MovieAccess = z.enum(['downloadable', 'downloaded', 'locked', 'not_in_plan', 'subscription_required']);
export type MovieAccess = z.infer<typeof MovieAccess>;

export const MovieDownloadSummary = z.object({
  downloadId: z.string(),
  status: DownloadStatus,
  downloadedBytes: z.number().int(),
  totalBytes: z.number().int(),
  resumedCount: z.number().int(),
  /** The size this download fetches. */
  size: DownloadSize,
  /** Bytes fetched so far, re-fetches after drops included. */
  fetchedBytes: z.number().int(),
});

export const UserMovie = z.object({
  ...MovieFields,
  s3_key: z.string(),
  is_active: z.boolean(),
  access: MovieAccess,
  download: MovieDownloadSummary.nullable(),
});
export type UserMovie = z.infer<typeof UserMovie>;

export const MOVIE_PAGE_SIZE_MAX = 100;

export const MOVIE_SORTS = ['newest', 'popular'] as const;
export type MovieSort = (typeof MOVIE_SORTS)[number];

export const MovieListQuery = z.object({
  /** Words matched against title, VJ and description; a typo or two per word is forgiven (decision 0168). */
  search: z.string().trim().max(100).optional(),
  category: MovieCategory.optional(),
  rating: MovieRating.optional(),
  /** One VJ, exactly (any case). */
  vj: z.string().trim().max(100).optional(),
  /** newest (default) or popular: most completed downloads first. */
  sort: z.enum(MOVIE_SORTS, { message: 'sort must be newest or popular.' }).default('newest'),
  /** 1-based; applies to each category separately so both sections fill. */
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MOVIE_PAGE_SIZE_MAX).default(24),
});
export type MovieListQuery = z.input<typeof MovieListQuery>;

const Pagination = {
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Matching movies per category (all pages). */
  totals: z.object({ Kinayuganda: z.number().int(), English: z.number().int() }),
  /** Another page has more of at least one category. */
  hasMore: z.boolean(),
};

export const KinayugandaProgress = z.object({
  /** Active Kinayuganda movies the caller is entitled to. */
  required: z.number().int(),
  completed: z.number().int(),
});

export const UserMovieList = z.object({
  movies: z.array(UserMovie),
  ...Pagination,
  subscribed: z.boolean(),
  /** False while an entitled Kinayuganda movie is still to download (English is locked). */
  hasDownloadedAllKinayuganda: z.boolean(),
  /** What the parental PIN hides from this session ('18' or '13'), null when nothing is (decision 0170). */
  hiddenByParentalPin: ParentalHides.nullable().optional(),
});
export type UserMovieList = z.infer<typeof UserMovieList>;

export const PublicMovieList = z.object({ movies: z.array(PublicMovie), ...Pagination });
export const UserMovieResponse = z.object({ movie: UserMovie });
