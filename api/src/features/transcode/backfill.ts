import type { Logger } from 'pino';
import type { ExecuteSql } from '../../db/client.ts';
import { NO_SMALL_HEVC_ENCODER } from './jobs.ts';
import { BACKFILL_PRIORITY, type TranscodeQueue } from './queue.ts';

/**
 * The HEVC Small for movies saved before it existed (decision 0251). Run at start, under the start-up lock and on
 * its connection (decision 0205), so of replicas starting together exactly one adds each row and sends its job; the
 * jobs wait behind every new upload's (BACKFILL_PRIORITY) and are encrypted when made, like any rendition.
 *
 * A movie gets one when it is live and has a ladder (its H.264 Small row: it was probed when saved). One saved while
 * the server had no ffmpeg is offered as uploaded and gets none; nor does a deleted one. Where ffmpeg lacks the
 * encoders the row is added `skipped` with the reason, and queued at the first start where ffmpeg has them.
 */
export async function backfillSmallHevc(
  deps: { executeSql: ExecuteSql; queue: TranscodeQueue; logger: Logger },
  options: { makesSmallHevc: boolean; now: Date },
): Promise<void> {
  const { executeSql, queue, logger } = deps;
  const at = options.now.toISOString();
  const state = options.makesSmallHevc ? 'queued' : 'skipped';
  const added = await executeSql(
    `with added as (
       insert into movie_renditions (movie_id, kind, state, error, created_at, updated_at)
       select m.id, 'small-hevc', $1, $2::text, $3::timestamptz, $3::timestamptz
         from movies m
        where m.deleted_at is null
          and exists (select 1 from movie_renditions s where s.movie_id = m.id and s.kind = 'small')
       on conflict do nothing
       returning movie_id)
     select a.movie_id, m.duration_seconds from added a join movies m on m.id = a.movie_id`,
    [state, options.makesSmallHevc ? null : NO_SMALL_HEVC_ENCODER, at],
  );
  const unskipped = options.makesSmallHevc
    ? await executeSql(
        `update movie_renditions r set state = 'queued', error = null, updated_at = $2::timestamptz
           from movies m
          where m.id = r.movie_id and m.deleted_at is null
            and r.kind = 'small-hevc' and r.state = 'skipped' and r.error = $1
          returning r.movie_id, m.duration_seconds`,
        [NO_SMALL_HEVC_ENCODER, at],
      )
    : { rows: [] };
  const toMake = options.makesSmallHevc ? [...added.rows, ...unskipped.rows] : [];
  for (const row of toMake) {
    const duration = row.duration_seconds == null ? null : Number(row.duration_seconds);
    await queue.send(String(row.movie_id), 'small-hevc', duration, { priority: BACKFILL_PRIORITY });
  }
  if (toMake.length > 0) {
    logger.info({ movies: toMake.length }, 'transcode: HEVC Small queued for movies saved before it (lowest priority)');
  } else if (added.rows.length > 0) {
    logger.warn(
      { movies: added.rows.length },
      `transcode: HEVC Small skipped for older movies: ${NO_SMALL_HEVC_ENCODER}`,
    );
  }
}
