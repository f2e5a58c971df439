import { defineContract } from '../contract.ts';
import { MovieIdParams } from '../schemas/downloads.ts';
import { WatchPositionList, WatchPositionRequest, WatchPositionResult } from '../schemas/watching.ts';

const tag = 'Watching';

export const saveWatchPosition = defineContract({
  method: 'put',
  path: '/users/watch-positions/:movieId',
  summary:
    'Where the person stopped in a movie they downloaded; the newest updatedAt wins (an older write never replaces a newer one)',
  tag,
  access: 'user',
  params: MovieIdParams,
  body: WatchPositionRequest,
  response: WatchPositionResult,
});

export const listWatchPositions = defineContract({
  method: 'get',
  path: '/users/watch-positions',
  summary: "The person's positions in every movie, newest first, so another phone resumes too",
  tag,
  access: 'user',
  response: WatchPositionList,
});
