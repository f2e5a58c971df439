import { MOVIE_TITLE_REQUIRED, PLAN_REQUIRED, RATING_REQUIRED, VJ_REQUIRED } from '@filamu/shared';

/** The upload form's rules (product §5), first unmet one first; the submit button stays disabled while any is. */

export interface UploadDraft {
  category: 'English' | 'Kinayuganda';
  title: string;
  vj: string;
  /** Empty until the admin chooses one. */
  rating: string;
  movie: { type: string } | null;
  thumbnail: { type: string } | null;
  planIds: string[];
}

export const MOVIE_NOT_VIDEO = 'The movie file must be a video (MP4, WebM, MKV, MOV or 3GP).';
export const THUMBNAIL_NOT_IMAGE = 'The thumbnail must be an image (JPEG, PNG or WebP).';

/** "attached to 1 plan", "attached to 3 plans" (not "1 plan(s)"). */
export const attachedToPlans = (n: number) => `attached to ${n} ${n === 1 ? 'plan' : 'plans'}`;

/**
 * `started`: the admin has typed or picked something. Before that nothing is wrong yet, so the list says what is
 * still needed without calling it a validation error.
 */
export function uploadProblems(draft: UploadDraft, { started = true }: { started?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (!draft.title.trim() || !draft.movie)
    problems.push(started ? `Validation Error: ${MOVIE_TITLE_REQUIRED}` : MOVIE_TITLE_REQUIRED);
  if (draft.movie && !draft.movie.type.startsWith('video/')) problems.push(MOVIE_NOT_VIDEO);
  if (draft.thumbnail && !draft.thumbnail.type.startsWith('image/')) problems.push(THUMBNAIL_NOT_IMAGE);
  if (draft.category === 'English' && !draft.vj.trim()) problems.push(VJ_REQUIRED);
  if (!draft.rating) problems.push(RATING_REQUIRED);
  if (draft.planIds.length === 0) problems.push(PLAN_REQUIRED);
  return problems;
}

/**
 * Plans that hold every live movie of `category` so far: a plan sold as "all Kinayuganda movies" would miss the
 * next upload unless the admin ticks it, so the upload form ticks these first and says why (decision 0211). None
 * while the category has no movie yet.
 */
export function plansWithWholeCategory(
  movies: readonly { category: string; plan_ids: readonly string[] }[],
  planIds: readonly string[],
  category: string,
): string[] {
  const inCategory = movies.filter((movie) => movie.category === category);
  if (inCategory.length === 0) return [];
  return planIds.filter((planId) => inCategory.every((movie) => movie.plan_ids.includes(planId)));
}
