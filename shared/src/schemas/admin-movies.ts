// The admin console's side of the movie library: uploads, the metadata it saves and the movie as it lists it. Kept
// apart from what a subscriber's screens read (./movies.ts) so a phone never builds these schemas (decision 0241).
import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';
import { AdminRendition } from './renditions.ts';
import { CERTIFICATE_NUMBER_MAX, CertificateDate, MovieRating } from './ratings.ts';
import {
  MOVIE_TITLE_REQUIRED,
  MovieCategory,
  type MovieCategoryName,
  MovieFields,
  PLAN_REQUIRED,
  UPLOAD_FOLDERS,
  VJ_REQUIRED,
} from './movies.ts';

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

export const AdminMovieList = z.object({ movies: z.array(AdminMovie) });
export const AdminMovieResponse = z.object({ id: z.string(), movie: AdminMovie });
