import { defineContract } from '../contract.ts';
import { IdParams } from '../schemas/common.ts';
import { MovieListQuery, PublicMovieList, UserMovieList, UserMovieResponse } from '../schemas/movies.ts';

export {
  adminAttachPlans,
  adminCreateMovie,
  adminDeleteMovie,
  adminListMovies,
  adminMultipartAbort,
  adminMultipartComplete,
  adminMultipartPartUrls,
  adminRetryRendition,
  adminToggleMovie,
  adminUpdateMovie,
  adminUploadUrl,
} from './admin-movies.ts';

const tag = 'Movies';

export const userMovies = defineContract({
  method: 'get',
  path: '/users/movies',
  summary: 'Active movies with what the caller may do with each (search, category, pages per category)',
  tag,
  access: 'account',
  query: MovieListQuery,
  response: UserMovieList,
});

export const userMovie = defineContract({
  method: 'get',
  path: '/users/movies/:id',
  summary: 'One active movie with what the caller may do with it',
  tag,
  access: 'account',
  params: IdParams,
  response: UserMovieResponse,
});

export const publicMovies = defineContract({
  method: 'get',
  path: '/users/public-movies',
  summary: 'The active library for anyone (no download links, no per-person state)',
  tag,
  access: 'public',
  query: MovieListQuery,
  response: PublicMovieList,
});
