// The admin console's movie routes, apart from the subscriber's (./movies.ts re-exports them, so
// `contracts.movies` stays whole) so a phone's screens never build their schemas (decision 0241).
import { defineContract } from '../contract.ts';
import { IdParams, Message } from '../schemas/common.ts';
import {
  AdminMovieList,
  AdminMovieResponse,
  AttachPlansRequest,
  CreateMovieRequest,
  MultipartAbortRequest,
  MultipartCompleteRequest,
  MultipartPartUrlsRequest,
  MultipartPartUrlsResponse,
  ToggleMovieRequest,
  UpdateMovieRequest,
  UploadUrlRequest,
  UploadUrlResponse,
} from '../schemas/admin-movies.ts';
import { RenditionParams } from '../schemas/renditions.ts';

const tag = 'Movies';

export const adminListMovies = defineContract({
  method: 'get',
  path: '/admin/movies',
  summary: 'Every movie in the library (deleted ones excluded), newest first',
  tag,
  access: 'admin',
  response: AdminMovieList,
});

export const adminUploadUrl = defineContract({
  method: 'post',
  path: '/admin/movies/generate-upload-url',
  summary: 'A signed upload link (or, for big movies on S3, a multipart upload) under a key the server chooses',
  tag,
  access: 'admin',
  body: UploadUrlRequest,
  response: UploadUrlResponse,
});

export const adminMultipartPartUrls = defineContract({
  method: 'post',
  path: '/admin/movies/multipart/part-urls',
  summary: 'Fresh part links for a multipart upload in progress (to resume after they lapse)',
  tag,
  access: 'admin',
  body: MultipartPartUrlsRequest,
  response: MultipartPartUrlsResponse,
});

export const adminMultipartComplete = defineContract({
  method: 'post',
  path: '/admin/movies/multipart/complete',
  summary: 'Assemble the uploaded parts into the movie object',
  tag,
  access: 'admin',
  body: MultipartCompleteRequest,
  response: Message,
});

export const adminMultipartAbort = defineContract({
  method: 'post',
  path: '/admin/movies/multipart/abort',
  summary: 'Give up a multipart upload and discard its parts',
  tag,
  access: 'admin',
  body: MultipartAbortRequest,
  response: Message,
});

export const adminCreateMovie = defineContract({
  method: 'post',
  path: '/admin/movies',
  summary: 'Save an uploaded movie: checks the object exists and is a video, records its real size',
  tag,
  access: 'admin',
  body: CreateMovieRequest,
  response: AdminMovieResponse,
  status: 201,
});

export const adminToggleMovie = defineContract({
  method: 'put',
  path: '/admin/movies/:id/toggle-active',
  summary: 'Show or hide a movie',
  tag,
  access: 'admin',
  params: IdParams,
  body: ToggleMovieRequest,
  response: AdminMovieResponse,
});

export const adminUpdateMovie = defineContract({
  method: 'patch',
  path: '/admin/movies/:id',
  summary:
    "Change a movie's details without touching its file: title, description, VJ, category, rating, certificate, " +
    'a newly uploaded poster, its plans (replaced; empty leaves it in no plan). Validated like an upload, one transaction',
  tag,
  access: 'admin',
  params: IdParams,
  body: UpdateMovieRequest,
  response: AdminMovieResponse,
});

export const adminAttachPlans = defineContract({
  method: 'post',
  path: '/admin/movies/:id/attach-plans',
  summary: "Set the plans whose subscribers may download the movie (replaces the movie's plans)",
  tag,
  access: 'admin',
  params: IdParams,
  body: AttachPlansRequest,
  response: AdminMovieResponse,
});

export const adminDeleteMovie = defineContract({
  method: 'delete',
  path: '/admin/movies/:id',
  summary: 'Delete a movie and its files; download history keeps its title',
  tag,
  access: 'admin',
  params: IdParams,
  response: Message,
});

export const adminRetryRendition = defineContract({
  method: 'post',
  path: '/admin/movies/:id/renditions/:kind/retry',
  summary: 'Queue a failed rendition of a movie again',
  tag,
  access: 'admin',
  params: RenditionParams,
  response: AdminMovieResponse,
});
