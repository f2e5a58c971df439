import { z } from 'zod';
import { IsoDateTime } from './common.ts';

/** Longest film a position may describe (24 h): bounds every number the server stores. */
export const MAX_WATCH_SECONDS = 24 * 60 * 60;
/** How far ahead of the server's clock a phone's `updatedAt` may be (decision 0164). */
export const WATCH_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Past this share of the film it counts as watched and opens from the start (decision 0163). */
export const WATCHED_FRACTION = 0.9;

const Seconds = z
  .number({ message: 'Must be a number of seconds.' })
  .finite()
  .min(0, 'Must not be negative.')
  .max(MAX_WATCH_SECONDS, `Must be at most ${MAX_WATCH_SECONDS} seconds.`);

/** A strict ISO 8601 instant with an offset (what `Date.toISOString()` writes). */
const ClientInstant = z.iso.datetime({ offset: true, message: 'Must be an ISO 8601 date and time.' });

/**
 * Where a person stopped in a movie, as the phone saw it at `updatedAt` (the phone's clock). The newest `updatedAt`
 * wins on the server: an older write arriving late never replaces a newer one.
 */
export const WatchPositionRequest = z
  .object({
    positionSeconds: Seconds,
    durationSeconds: Seconds.refine((v) => v > 0, 'Must be more than 0.'),
    updatedAt: ClientInstant,
  })
  .refine((v) => v.positionSeconds <= v.durationSeconds, {
    message: 'The position cannot be past the end of the movie.',
    path: ['positionSeconds'],
  });
export type WatchPositionRequest = z.input<typeof WatchPositionRequest>;
export type WatchPositionBody = z.output<typeof WatchPositionRequest>;

export const WatchPosition = z.object({
  movieId: z.string(),
  positionSeconds: z.number(),
  durationSeconds: z.number(),
  updatedAt: IsoDateTime,
});
export type WatchPosition = z.infer<typeof WatchPosition>;

/** The stored position after a write: `applied` false when a newer one was already there (and is returned). */
export const WatchPositionResult = WatchPosition.extend({ applied: z.boolean() });
export type WatchPositionResult = z.infer<typeof WatchPositionResult>;

/** Every position the person has, newest first, with the movie's title (for a phone that does not hold the movie). */
export const WatchPositionListItem = WatchPosition.extend({ title: z.string() });
export type WatchPositionListItem = z.infer<typeof WatchPositionListItem>;
export const WatchPositionList = z.object({ positions: z.array(WatchPositionListItem) });
export type WatchPositionList = z.infer<typeof WatchPositionList>;

/** Watched: past 90 % of the film (decision 0163). */
export function isWatched(positionSeconds: number, durationSeconds: number): boolean {
  return durationSeconds > 0 && positionSeconds >= durationSeconds * WATCHED_FRACTION;
}
