import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';
import { AdminRendition, DownloadSize, MovieSize } from './renditions.ts';
import { ParentalHides } from './parental-pin.ts';
import { CERTIFICATE_NUMBER_MAX, CertificateDate, MovieRating } from './ratings.ts';
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

/** Shape of a key the server generated (`movies/<uuid>.mp4`); anything else is refused before any lookup. */
const ObjectKey = (folder: (typeof UPLOAD_FOLDERS)[number]) =>
  z
    .string()
    .max(100, `Use the ${folder === 'movies' ? 'movie' : 'thumbnail'} key returned by generate-upload-url.`)
    .trim()
    .regex(
      new RegExp(`^${folder}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{2,4}$`),
      `Use the ${folder === 'movies' ? 'movie' : 'thumbnail'} key returned by generate-upload-url.`,
    );

export const UploadUrlRequest = z.object({
  fileName: z.string().trim().min(1, 'fileName is required.').max(255),
  fileType: z
    .string()
    .trim()
    .min(1, 'fileType is required.')
    .max(100)
    .transform((v) => v.toLowerCase()),
  fileSize: z.number().int('fileSize must be a whole number of bytes.').positive('The file is empty.'),
  folder: z.enum(UPLOAD_FOLDERS, { message: 'folder must be movies or thumbnails.' }),
});
export type UploadUrlRequest = z.input<typeof UploadUrlRequest>;

/**
 * Single PUT (`presignedUrl`, the spec's field) or, for big movies on S3, a multipart upload whose
 * part URLs can be re-minted. Either way the object lands under `s3Key`.
 */
export const UploadUrlResponse = z.object({
  s3Key: z.string(),
  expiresAt: IsoDateTime,
  presignedUrl: z.string().nullable(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  multipart: z
    .object({
      uploadId: z.string(),
      partSize: z.number().int(),
      partCount: z.number().int(),
      parts: z.array(z.object({ partNumber: z.number().int(), url: z.string() })),
    })
    .nullable(),
});
export type UploadUrlResponse = z.infer<typeof UploadUrlResponse>;

export const MultipartPartUrlsRequest = z.object({
  s3Key: ObjectKey('movies'),
  uploadId: z.string().min(1).max(1024),
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(1000),
});
export const MultipartPartUrlsResponse = z.object({
  parts: z.array(z.object({ partNumber: z.number().int(), url: z.string() })),
  expiresAt: IsoDateTime,
});

export const MultipartCompleteRequest = z.object({
  s3Key: ObjectKey('movies'),
  uploadId: z.string().min(1).max(1024),
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1).max(200) }))
    .min(1)
    .max(10_000),
});
export const MultipartAbortRequest = z.object({ s3Key: ObjectKey('movies'), uploadId: z.string().min(1).max(1024) });

const PlanIds = z
  .array(Id, { message: PLAN_REQUIRED })
  .min(1, PLAN_REQUIRED)
  .max(50)
  .transform((ids) => [...new Set(ids)]);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

const MovieTitle = z.string({ message: MOVIE_TITLE_REQUIRED }).trim().min(1, MOVIE_TITLE_REQUIRED).max(200);
const Vj = optionalText(100).transform((v) => (v && v.toUpperCase() !== 'N/A' ? v : 'N/A'));
const CertificateNumber = optionalText(CERTIFICATE_NUMBER_MAX);
const OptionalCertificateDate = z
  .union([CertificateDate, z.literal('')])
  .nullish()
  .transform((v) => (v ? v : null));

/** English movies are chosen by VJ: one without a VJ is refused (upload and edit alike). */
export function vjIssue(movie: { category: MovieCategoryName; vj: string }): string | null {
  return movie.category === 'English' && movie.vj === 'N/A' ? VJ_REQUIRED : null;
}

/** The spec's metadata payload; `planIds` (optional) attaches plans in the same transaction. */
export const CreateMovieRequest = z
  .object({
    title: MovieTitle,
    description: optionalText(5000),
    vj: Vj,
    category: MovieCategory,
    rating: MovieRating,
    certificateNumber: CertificateNumber,
    certificateDate: OptionalCertificateDate,
    movieS3Key: ObjectKey('movies'),
    thumbnailS3Key: ObjectKey('thumbnails').nullish(),
    size: z.number().int().positive().optional(),
    planIds: PlanIds.optional(),
  })
  .superRefine((movie, ctx) => {
    const issue = vjIssue(movie);
    if (issue) ctx.addIssue({ code: 'custom', path: ['vj'], message: issue });
  });
export type CreateMovieRequest = z.input<typeof CreateMovieRequest>;

export const EDIT_NOTHING = 'Change at least one field of the movie.';

/**
 * A movie's details changed without touching its file (decision 0167): every field optional, each validated as on
 * upload; `thumbnailS3Key` is a newly uploaded poster; `planIds` replaces the movie's plans (empty: in no plan).
 */
export const UpdateMovieRequest = z
  .object({
    title: MovieTitle.optional(),
    description: optionalText(5000).optional(),
    vj: Vj.optional(),
    category: MovieCategory.optional(),
    rating: MovieRating.optional(),
    certificateNumber: CertificateNumber.optional(),
    certificateDate: OptionalCertificateDate.optional(),
    thumbnailS3Key: ObjectKey('thumbnails').optional(),
    planIds: z
      .array(Id)
      .max(50)
      .transform((ids) => [...new Set(ids)])
      .optional(),
  })
  .refine((edit) => Object.values(edit).some((v) => v !== undefined), EDIT_NOTHING);
export type UpdateMovieRequest = z.input<typeof UpdateMovieRequest>;

export const ToggleMovieRequest = z.object({ is_active: z.boolean({ message: 'is_active must be true or false.' }) });
export const AttachPlansRequest = z.object({ planIds: PlanIds });

/** Fields every reader of a movie sees. `thumbnail_url` is already resolved (CDN, local or signed URL). */
const MovieFields = {
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

export const AdminMovie = z.object({
  ...MovieFields,
  s3_key: z.string(),
  is_active: z.boolean(),
  /** False for movies saved before ratings existed, until an admin saves their rating (decision 0166). */
  rating_confirmed: z.boolean(),
  plan_ids: z.array(z.string()),
  download_count: z.number().int(),
  /** When it was taken down for rights (decision 0231); null otherwise. */
  taken_down_at: IsoDateTime.nullable(),
  /**
   * Files phones can get, encrypted with the title's key, against all of them (decision 0235): below `files`, the
   * encryption job still has some to do.
   */
  encryption: z.object({ encrypted: z.number().int(), files: z.number().int() }),
  /** The rendition ladder's state, one entry per size (Small, Standard, HD) once the movie is saved. */
  renditions: z.array(AdminRendition),
});
export type AdminMovie = z.infer<typeof AdminMovie>;

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
export const AdminMovieList = z.object({ movies: z.array(AdminMovie) });
export const AdminMovieResponse = z.object({ id: z.string(), movie: AdminMovie });
export const UserMovieResponse = z.object({ movie: UserMovie });
