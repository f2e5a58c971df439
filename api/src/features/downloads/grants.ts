// Longer than 300 lines on purpose: every rule that decides whether a download link is given, in the order the server
// applies them, in one transaction.
import { randomUUID } from 'node:crypto';
import {
  ALREADY_DOWNLOADED,
  isRatingHiddenBy,
  KINAYUGANDA_FIRST,
  type ParentalHides,
  type RedownloadAllowance,
  SUBSCRIPTION_REQUIRED,
} from '@filamu/shared';
import { type ColumnsSelection, eq, sql, type SQL } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import { isUniqueViolation, type Tx, type Database } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { downloads } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound, unauthenticated } from '../../http/errors.ts';
import type { ObjectInfo, ObjectStorage } from '../storage/storage.ts';
import { decideAccess, type Downloader, lockDownloader, recordEnglishUnlock } from '../movies/entitlement.ts';
import type { MovieFile } from '../movies/files.ts';
import type { MovieRow } from '../movies/movie.ts';
import type { DownloadRow } from './records.ts';
import { type ExistingFacts, grantFacts } from './grant-facts.ts';
import { chooseFile, expectedFile, findGrantedMovie, type GrantRef, isExpectedFile } from './grant-reads.ts';
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
  /**
   * For a download this grant creates, instead of `write`: the feature's row inserted in the same statement as the
   * download (one round trip fewer on every first download), and what `write` would have returned for it.
   */
  withNewDownload?(
    tx: Tx,
    download: { id: string; movieId: string },
  ): { insert: AlongsideInsert; written(row: Record<string, unknown>): Written };
}

/** An insert returning its row, run as a CTE beside the download's own insert. */
type AlongsideInsert = TypedQueryBuilder<ColumnsSelection>;

export interface GrantOptions<Read = unknown, Written = unknown> {
  /** The grant hands out a link (generate-download-url), not only a download id (start). */
  mintsLink?: boolean;
  /** What the caller's parental PIN hides from their session: such a movie is refused until the PIN is entered. */
  hiddenByPin?: ParentalHides | null;
  /** How long a link to a file of this many bytes should live (S3 keeps one live window per download: 0192). */
  linkSeconds?: (fileBytes: number) => number;
  alongside?: GrantAlongside<Read, Written>;
  /**
   * The film came whole from another phone (issue 19/22): the download this grant makes or resumes is the person's
   * download of it, completed at once, with no link (the bytes never crossed the network); an agent's file is counted
   * for the agent.
   */
  received?: { fromAgentId: string | null };
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

/** The guessed file was not the one committed: the grant rolls back and starts again the long way. */
class StaleGuess extends Error {}

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
  options: GrantOptions<Read, Written>,
): Promise<GrantWith<Written> & { result: GrantResult }> {
  const { movie, cachedFiles } = await findGrantedMovie(deps, ref);
  if (isRatingHiddenBy(options.hiddenByPin ?? null, movie.rating)) {
    throw new AppError('pin_required', 'This title is hidden by your parental PIN. Enter the PIN to download it.');
  }
  // The short way (decision 0242): the file the cache expects, checked under the lock; the long way reads it first.
  const expected = expectedFile(cachedFiles, ref);
  if (expected) {
    try {
      return await decideWithFile(deps, caller, ref, options, movie, { chosen: expected, expected: true });
    } catch (error) {
      if (!(error instanceof StaleGuess)) throw error;
    }
  }
  const { chosen, read } = await chooseFile(deps, caller, movie, ref, options.alongside?.read);
  return decideWithFile(deps, caller, ref, options, movie, { chosen, expected: false, read });
}

/** The file a grant hands out: read before the lock (`read` is then what `alongside` read), or expected. */
type FileChoice<Read> =
  { chosen: MovieFile | AppError; expected: false; read: Read } | { chosen: MovieFile; expected: true };

async function decideWithFile<Read, Written>(
  deps: GrantDeps,
  caller: Downloader,
  ref: GrantRef,
  { mintsLink = false, linkSeconds, alongside, received }: GrantOptions<Read, Written>,
  movie: MovieRow,
  choice: FileChoice<Read>,
): Promise<GrantWith<Written> & { result: GrantResult }> {
  const { chosen } = choice;
  // Storage is asked before any lock is taken; a missing file refuses the grant below, in rule order.
  const stored = chosen instanceof AppError ? null : await deps.storage.head(chosen.key);
  const file = stored && !(chosen instanceof AppError) ? { ...stored, key: chosen.key, nonce: chosen.nonce } : null;
  const now = deps.clock.now();
  /** A download this grant found delivered in full and closed: a refusal below must not roll that back for good. */
  let closedHere: string | null = null;
  try {
    return await transactionRetrying(deps.database.db, async (tx) => {
      const { read, written, ...granted } = await decideUnderLock(tx);
      if (written !== undefined) return { ...granted, alongside: written };
      return { ...granted, alongside: alongside ? await alongside.write(tx, granted, read, ref) : null };
    });
  } catch (error) {
    // The refusal rolled back the close it made: close it again on its own (a failure here waits for the next grant).
    if (closedHere) await completeDelivered(deps.database, closedHere, now).catch(() => undefined);
    // Unreachable while the row lock holds; kept so a change there can never produce a second row or a 500.
    if (isUniqueViolation(error)) throw new AppError('conflict', 'This download is being started already. Try again.');
    throw error;
  }

  async function decideUnderLock(tx: Tx): Promise<Grant & { result: GrantResult; read: Read; written?: Written }> {
    const downloader = await lockDownloader(tx, caller, now);
    if (!downloader) throw unauthenticated('Your session has ended. Please sign in again.');
    const facts = await grantFacts(
      tx,
      downloader,
      movie,
      choice.expected ? { file: choice.chosen, read: alongside?.read } : null,
    );
    if (!facts) throw notFound('Movie');
    // An admin made the movie English since the caller's catalogue read it: what locks English is read now.
    if (facts.category === 'English' && facts.kinayugandaOutstanding === null) {
      const asEnglish = await grantFacts(tx, downloader, movie, null, true);
      facts.kinayugandaOutstanding = asEnglish?.kinayugandaOutstanding ?? true;
    }
    // An expected file that is not the committed one, or a download of another size when none was asked for: nothing
    // is written yet, and the long way reads the file afresh.
    if (
      choice.expected &&
      (!isExpectedFile(choice.chosen, facts.file) ||
        (ref.size === undefined && (facts.existing?.size ?? 'original') !== 'original'))
    ) {
      throw new StaleGuess();
    }
    const read = (choice.expected ? facts.alongside : choice.read) as Read;
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
      kinayugandaOutstanding: facts.kinayugandaOutstanding === true && !reopened && !again,
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
      return { download: row!, movie, file, redownloads: taken.allowance, result: 'redownload', read };
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
          // The first time it came from a phone stays its date.
          ...(received ? { receivedAt: sql`coalesce(${downloads.receivedAt}, ${now})` } : {}),
          ...(received?.fromAgentId ? { receivedFromAgentId: received.fromAgentId } : {}),
          lastActivityAt: now,
          updatedAt: now,
        })
        .where(eq(downloads.id, existing.id))
        .returning();
      const result = resumed ? 'resumed' : 'repeated';
      const done = received ? await closeDownload(tx, downloader, row!, now, { confirmed: true }) : undefined;
      return { download: done ?? row!, movie, file, redownloads: await allowanceNow(), result, read };
    }
    const id = randomUUID();
    const insertDownload = tx
      .insert(downloads)
      .values({
        id,
        ...(downloader.kind === 'user' ? { userId: downloader.id } : { agentId: downloader.id }),
        movieId: movie.id,
        size: chosen.size,
        totalBytes: file.size,
        status: received ? 'completed' : 'starting',
        ...(received
          ? {
              downloadedBytes: file.size,
              completedAt: now,
              confirmedAt: now,
              receivedAt: now,
              receivedFromAgentId: received.fromAgentId,
            }
          : {}),
        linksSinceProgress: mintsLink ? 1 : 0,
        linkExpiresAt: window?.fresh ?? null,
        createdAt: now,
        updatedAt: now,
        lastActivityAt: now,
      })
      .returning();
    const granted = { movie, file, redownloads: await allowanceNow(), result: 'granted' as const, read };
    // Received whole, its last Kinayuganda film unlocks English as a completed download does (closeDownload).
    const unlockEnglish = () => (received ? recordEnglishUnlock(tx, downloader, now) : undefined);
    const along = alongside?.withNewDownload?.(tx, { id, movieId: movie.id });
    if (!along) {
      const [row] = await insertDownload;
      await unlockEnglish();
      return { download: row!, ...granted };
    }
    const newDownload = tx.$with('new_download').as(insertDownload);
    const alongsideRow = tx.$with('alongside_row').as(along.insert);
    const [both] = await tx.with(newDownload, alongsideRow).select().from(newDownload).crossJoin(alongsideRow);
    await unlockEnglish();
    return { download: both!.new_download, ...granted, written: along.written(both!.alongside_row) };
  }
}
