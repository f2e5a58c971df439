// Longer than 300 lines on purpose: every rule that decides whether a download link is given, in the order the server
// applies them, in one transaction.
import {
  ALREADY_DOWNLOADED,
  isRatingHiddenBy,
  KINAYUGANDA_FIRST,
  type ParentalHides,
  type RedownloadAllowance,
  SUBSCRIPTION_REQUIRED,
} from '@filamu/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { isUniqueViolation, type Tx, type Database } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { downloads, movies } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound, unauthenticated } from '../../http/errors.ts';
import type { ObjectInfo, ObjectStorage } from '../storage/storage.ts';
import {
  decideAccess,
  type Downloader,
  entitledMovie,
  kinayugandaOutstandingSql,
  lockDownloader,
  ownDownloads,
  recordEnglishUnlock,
} from '../movies/entitlement.ts';
import { liveMovie, type MovieRow } from '../movies/movie.ts';
import type { DownloadRow } from './records.ts';
import { chooseFile, findGrantedMovie, type GrantRef } from './grant-reads.ts';
import { closeDownload, completeDelivered, deliveredInFull, finishing } from './completion.ts';
import { MAX_COPIES_PER_GRANT, TOO_MANY_COPIES } from './grant-caps.ts';
import { linkWindow, windowOf } from './s3-link-window.ts';
import { isClosed, redownloadAllowance, takeRedownload } from './redownloads.ts';
import type { Catalogue } from '../catalog/catalogue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Metrics } from '../metrics/registry.ts';

export interface GrantDeps {
  database: Database;
  clock: Clock;
  storage: ObjectStorage;
  catalogue: Catalogue;
  metrics: Metrics;
  config: Pick<Config, 'redownloadsPerMonth'>;
}

export const NOT_IN_PLAN = 'This movie is not included in your plan.';
const FILE_MISSING = 'Movie file is missing. Cannot download.';
/**
 * Links one download may be given in a row while none of them delivers a new byte (decision 0111): a link lasts an
 * hour and the app asks again only when it lapsed or storage refused it, so an honest download stuck this long
 * has a problem a new link will not fix, and a client re-fetching a whole movie over and over is stopped here.
 */
export const MAX_LINKS_WITHOUT_PROGRESS = 12;
export const TOO_MANY_LINKS =
  'This download has been given many links without receiving anything new. Contact support to download it again.';

/**
 * Another feature's work done with the grant (the licence a link carries): `read` is a column the grant reads with the
 * movie's files, before any lock (a subquery on `movies`); `write` runs inside the grant's transaction once the
 * download row is this grant's, with what was read. A refusal of the grant rolls it back too.
 */
export interface GrantAlongside<Read, Written> {
  read: SQL<Read>;
  write(tx: Tx, granted: Omit<Grant, 'alongside'>, read: Read, ref: GrantRef): Promise<Written>;
}

export interface GrantOptions<Read = unknown, Written = unknown> {
  /** The grant hands out a link (generate-download-url), not only a download id (start). */
  mintsLink?: boolean;
  /** What the caller's parental PIN hides from their session: such a movie is refused until the PIN is entered. */
  hiddenByPin?: ParentalHides | null;
  /** How long a link to a file of this many bytes should live (S3 keeps one live window per download: 0192). */
  linkSeconds?: (fileBytes: number) => number;
  alongside?: GrantAlongside<Read, Written>;
}

export interface Grant {
  download: DownloadRow;
  movie: MovieRow;
  /** What storage says of the file the download fetches (its size's rendition or the original, `download.size`). */
  file: ObjectInfo & { key: string; nonce: string | null };
  /** On a re-download request: the allowance after it. */
  redownloads: RedownloadAllowance | null;
}

/** A grant with what `alongside` wrote in its transaction (null without it). */
export type GrantWith<Written> = Grant & { alongside: Written | null };

/**
 * In one statement, under the downloader's lock: whether the movie is still live, whether they are entitled to
 * it, their download of it (locked, so a completion cannot slip in before the update) and, for an English
 * movie, whether a Kinayuganda one still locks it.
 */
async function grantFacts(tx: Tx, downloader: Downloader, movie: MovieRow) {
  const existing = tx
    .select({
      id: downloads.id,
      status: downloads.status,
      resumedCount: downloads.resumedCount,
      linksSinceProgress: downloads.linksSinceProgress,
      copiesSent: downloads.copiesSent,
      deliveredBytes: downloads.deliveredBytes,
      totalBytes: downloads.totalBytes,
      linkExpiresAt: downloads.linkExpiresAt,
      redownloadStartedAt: downloads.redownloadStartedAt,
      confirmedAt: downloads.confirmedAt,
      size: downloads.size,
    })
    .from(downloads)
    .where(and(ownDownloads(downloader), eq(downloads.movieId, movies.id)))
    .for('update')
    .as('existing');
  const [facts] = await tx
    .select({
      entitled: sql<boolean>`${entitledMovie(downloader)}`,
      // The category as committed, not as this process's catalogue last saw it: an admin may just have changed it.
      category: movies.category,
      kinayugandaOutstanding: sql<boolean>`case when ${movies.category} = 'English'
        then ${kinayugandaOutstandingSql(downloader)} else false end`,
      existing: {
        id: existing.id,
        status: existing.status,
        resumedCount: existing.resumedCount,
        linksSinceProgress: existing.linksSinceProgress,
        copiesSent: existing.copiesSent,
        deliveredBytes: existing.deliveredBytes,
        totalBytes: existing.totalBytes,
        linkExpiresAt: existing.linkExpiresAt,
        redownloadStartedAt: existing.redownloadStartedAt,
        confirmedAt: existing.confirmedAt,
        size: existing.size,
      },
    })
    .from(movies)
    .leftJoinLateral(existing, sql`true`)
    .where(and(eq(movies.id, movie.id), liveMovie()));
  return facts;
}

type ExistingFacts = NonNullable<Awaited<ReturnType<typeof grantFacts>>>['existing'];

/**
 * A download whose file `/files` delivered in full is done, whether or not its completion has landed yet (it is
 * written just after the last bytes): close it here, under the grant's locks, so a change of size or a fresh link
 * after full delivery is a re-download, never a second copy for free (decision 0191).
 */
async function closeIfDelivered(tx: Tx, downloader: Downloader, existing: ExistingFacts, now: Date) {
  if (!existing?.id || isClosed(existing) || !deliveredInFull(existing)) return existing;
  await closeDownload(tx, downloader, existing, now);
  return { ...existing, status: 'completed' as const, redownloadStartedAt: null };
}

/**
 * Grants the download of a movie, or resumes the caller's unfinished one (same row, resumedCount + 1).
 * Every rule is checked in one transaction that holds the caller's own row lock, so concurrent grants
 * queue up: twenty at once create exactly one download, and an English grant never slips past a
 * Kinayuganda movie that is not completed at commit time. The unique (person, movie) index backs it up.
 */
export async function grantDownload<Read = unknown, Written = unknown>(
  deps: GrantDeps,
  caller: Downloader,
  ref: GrantRef,
  options: GrantOptions<Read, Written> = {},
): Promise<GrantWith<Written>> {
  try {
    const { result, ...grant } = await decideGrant(deps, caller, ref, options);
    deps.metrics.downloadGrants.inc({ result });
    return grant;
  } catch (error) {
    // A refusal by its error code (subscription_required, download_locked, …); anything else is an error.
    deps.metrics.downloadGrants.inc({ result: error instanceof AppError ? error.code : 'error' });
    throw error;
  }
}

type GrantResult = 'granted' | 'resumed' | 'repeated' | 'redownload';

async function decideGrant<Read, Written>(
  deps: GrantDeps,
  caller: Downloader,
  ref: GrantRef,
  { mintsLink = false, hiddenByPin = null, linkSeconds, alongside }: GrantOptions<Read, Written>,
): Promise<GrantWith<Written> & { result: GrantResult }> {
  const movie = await findGrantedMovie(deps, ref);
  if (isRatingHiddenBy(hiddenByPin, movie.rating)) {
    throw new AppError('pin_required', 'This title is hidden by your parental PIN. Enter the PIN to download it.');
  }
  const { chosen, read } = await chooseFile(deps, caller, movie, ref, alongside?.read);
  // Storage is asked before any lock is taken; a missing file refuses the grant below, in rule order.
  const stored = chosen instanceof AppError ? null : await deps.storage.head(chosen.key);
  const file = stored && !(chosen instanceof AppError) ? { ...stored, key: chosen.key, nonce: chosen.nonce } : null;
  const now = deps.clock.now();
  /** A download this grant found delivered in full and closed: a refusal below must not roll that back for good. */
  let closedHere: string | null = null;
  try {
    return await transactionRetrying(deps.database.db, async (tx) => {
      const granted = await decideUnderLock(tx);
      const written = alongside ? await alongside.write(tx, granted, read, ref) : null;
      return { ...granted, alongside: written };
    });
  } catch (error) {
    // The refusal rolled back the close it made: close it again on its own (a failure here waits for the next grant).
    if (closedHere) await completeDelivered(deps.database, closedHere, now).catch(() => undefined);
    // Unreachable while the row lock holds; kept so a change there can never produce a second row or a 500.
    if (isUniqueViolation(error)) throw new AppError('conflict', 'This download is being started already. Try again.');
    throw error;
  }

  async function decideUnderLock(tx: Tx): Promise<Grant & { result: GrantResult }> {
    const downloader = await lockDownloader(tx, caller, now);
    if (!downloader) throw unauthenticated('Your session has ended. Please sign in again.');
    const facts = await grantFacts(tx, downloader, movie);
    if (!facts) throw notFound('Movie');
    const existing = await closeIfDelivered(tx, downloader, facts.existing, now);
    if (existing !== facts.existing) closedHere = existing?.id ?? null;
    // A completed movie is granted again only as a re-download: one under way resumes, a new one takes one of
    // the allowance. Either way the person had the movie, so Kinayuganda-first does not stand in its way.
    // Completed by the server, not yet confirmed by the phone: the same file may be finished (decision 0213).
    const finishingSameFile =
      existing?.id != null &&
      finishing(existing) &&
      ref.redownload !== true &&
      (ref.size === undefined || ref.size === existing.size);
    const reopened = (existing?.status === 'completed' && existing.redownloadStartedAt !== null) || finishingSameFile;
    const again = existing?.status === 'completed' && !reopened && ref.redownload === true;
    const access = decideAccess({
      downloader,
      entitled: facts.entitled,
      completed: existing?.status === 'completed' && !reopened && !again,
      category: facts.category,
      kinayugandaOutstanding: facts.kinayugandaOutstanding && !reopened && !again,
    });
    if (access === 'downloaded') throw new AppError('already_downloaded', ALREADY_DOWNLOADED);
    if (access === 'subscription_required') throw new AppError('subscription_required', SUBSCRIPTION_REQUIRED);
    if (access === 'not_in_plan') throw forbidden(NOT_IN_PLAN);
    if (access === 'locked') throw new AppError('download_locked', KINAYUGANDA_FIRST);
    // An English grant under no lock means English is unlocked now: kept for the period (decision 0177).
    if (facts.category === 'English' && !downloader.englishKept) await recordEnglishUnlock(tx, downloader, now);
    if (chosen instanceof AppError) throw chosen;
    if (!file) throw new AppError('unavailable', FILE_MISSING);
    // Another grant changed the download's size between the choice above and this lock: choose again.
    if (ref.size === undefined && existing && existing.size !== chosen.size) {
      throw conflict('This download changed size meanwhile. Try again.');
    }
    // A new size starts the file again from zero (decision 0126): offsets and delivered bytes of another file
    // mean nothing in this one; what was fetched stays counted, it cost the person data.
    const newFile = {
      size: chosen.size,
      totalBytes: file.size,
      downloadedBytes: 0,
      deliveredRanges: [],
      deliveredBytes: 0,
    };
    const window = linkWindow(deps.storage.driver, {
      mintsLink,
      seconds: linkSeconds ? linkSeconds(file.size) : null,
      now,
    });
    const perMonth = deps.config.redownloadsPerMonth;
    const allowanceNow = async () =>
      ref.redownload && downloader.kind === 'user' ? redownloadAllowance(tx, downloader.id, perMonth, now) : null;

    if (existing && again) {
      const taken = await takeRedownload(tx, downloader, existing, {
        perMonth,
        now,
        links: mintsLink ? 1 : 0,
        file: { size: chosen.size, totalBytes: file.size },
      });
      // A re-download is a new grant: a new window.
      const [row] = window
        ? await tx
            .update(downloads)
            .set({ linkExpiresAt: window.fresh })
            .where(eq(downloads.id, existing.id!))
            .returning()
        : [taken.row];
      return { download: row!, movie, file, redownloads: taken.allowance, result: 'redownload' };
    }
    if (existing) {
      if (mintsLink && existing.linksSinceProgress >= MAX_LINKS_WITHOUT_PROGRESS) throw conflict(TOO_MANY_LINKS);
      if (mintsLink && existing.copiesSent >= MAX_COPIES_PER_GRANT) throw conflict(TOO_MANY_COPIES);
      // A grant while the download is still starting is the same attempt (start, then a link); any later
      // grant is a resume: new link, same row, offset kept.
      const resumed = existing.status !== 'starting';
      const [row] = await tx
        .update(downloads)
        .set({
          ...(existing.size !== chosen.size ? newFile : {}),
          // A reopened re-download stays completed: the person has the movie while its file comes again.
          status: reopened ? 'completed' : 'starting',
          resumedCount: resumed ? existing.resumedCount + 1 : existing.resumedCount,
          linksSinceProgress: mintsLink ? existing.linksSinceProgress + 1 : existing.linksSinceProgress,
          ...windowOf(window, existing, chosen.size),
          error: null,
          lastActivityAt: now,
          updatedAt: now,
        })
        .where(eq(downloads.id, existing.id))
        .returning();
      const result = resumed ? 'resumed' : 'repeated';
      return { download: row!, movie, file, redownloads: await allowanceNow(), result };
    }
    const [row] = await tx
      .insert(downloads)
      .values({
        ...(downloader.kind === 'user' ? { userId: downloader.id } : { agentId: downloader.id }),
        movieId: movie.id,
        size: chosen.size,
        totalBytes: file.size,
        status: 'starting',
        linksSinceProgress: mintsLink ? 1 : 0,
        linkExpiresAt: window?.fresh ?? null,
        createdAt: now,
        updatedAt: now,
        lastActivityAt: now,
      })
      .returning();
    return { download: row!, movie, file, redownloads: await allowanceNow(), result: 'granted' as const };
  }
}
