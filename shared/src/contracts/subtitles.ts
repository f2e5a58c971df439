import { defineContract } from '../contract.ts';
import { AdminMovieResponse } from '../schemas/movies.ts';
import { SubtitleFile, SubtitleParams, SubtitleUploadRequest } from '../schemas/subtitles.ts';

const tag = 'Subtitles';

export const adminPutSubtitles = defineContract({
  method: 'put',
  path: '/admin/movies/:id/subtitles/:language',
  summary:
    "Attach (or replace) a movie's subtitles in one language: SRT or WebVTT text, checked, cleaned and stored as " +
    'WebVTT; garbage is refused with invalid_subtitles, a file over 512 KB with payload_too_large',
  tag,
  access: 'admin',
  params: SubtitleParams,
  body: SubtitleUploadRequest,
  response: AdminMovieResponse,
});

export const adminDeleteSubtitles = defineContract({
  method: 'delete',
  path: '/admin/movies/:id/subtitles/:language',
  summary: "Remove a movie's subtitles in one language",
  tag,
  access: 'admin',
  params: SubtitleParams,
  response: AdminMovieResponse,
});

export const movieSubtitles = defineContract({
  method: 'get',
  path: '/users/movies/:id/subtitles/:language',
  summary:
    'One subtitle file of a movie as text/vtt, for whoever may download the movie or already holds a download of it',
  tag,
  access: 'account',
  params: SubtitleParams,
  response: SubtitleFile,
  contentType: 'text/vtt',
});
