import { defineContract } from '../contract.ts';
import { SubtitleFile, SubtitleParams } from '../schemas/subtitles.ts';

export { adminDeleteSubtitles, adminPutSubtitles } from './admin-subtitles.ts';

const tag = 'Subtitles';

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
