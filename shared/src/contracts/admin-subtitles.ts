// The admin console's subtitle routes, apart from the player's (./subtitles.ts re-exports them) so a phone never
// builds the admin movie schemas they answer with (decision 0241).
import { defineContract } from '../contract.ts';
import { AdminMovieResponse } from '../schemas/admin-movies.ts';
import { SubtitleParams, SubtitleUploadRequest } from '../schemas/subtitles.ts';

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
