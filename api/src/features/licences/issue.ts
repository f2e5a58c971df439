import {
  FILM_TAKEN_DOWN,
  LICENCE_ELSEWHERE,
  type Licence,
  type LicenceWay,
  NO_LICENCE_WITHOUT_DOWNLOAD,
} from '@filamu/shared';
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Executor, Tx } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { downloads, licences, movies } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ContentKeys } from '../content-keys/content-keys.ts';
import type { Metrics } from '../metrics/registry.ts';
import { type Downloader, ownDownloads, ownedBy } from '../movies/entitlement.ts';
import { spendRedownload } from '../movies/redownload-allowance.ts';
import { type DeviceKey, readDeviceKey, wrapForDevice } from './device-key.ts';
import type { LicenceSigner } from './signing.ts';

/**
 * Licences (decision 0230). A licence is issued only for a download the grant allowed (every rule of who may have
 * which film is the grant's), to the phone that asks, and a download has one live licence at a time: the
 * single-device rule for films. Issuing again to the same phone gives the same licence, wrapped anew.
 */

export interface LicenceDeps {
  database: Database;
  clock: Clock;
  contentKeys: ContentKeys;
  licenceSigner: LicenceSigner;
  metrics: Pick<Metrics, 'licencesIssued'>;
  config: Pick<Config, 'redownloadsPerMonth'>;
}

/** The phone asking: the session's device id and the public key it sent. */
export interface LicencePhone {
  deviceId: string;
  devicePublicKey: string;
}

type LicenceRow = typeof licences.$inferSelect;

/**
 * How a licence on another phone may come to this one: with a grant (`download`, `redownload`: the grant already
 * decided and spent what it had to), by `move` (a re-download without bytes: it spends one here), or not at all.
 */
type FromOtherPhone = { way: LicenceWay; spends: boolean } | null;

const subjectOf = (downloader: Downloader) => `${downloader.kind}:${downloader.id}`;

/** A licence row as the grant reads it before its lock (JSON: timestamps are text). */
type SeenLicence = Omit<LicenceRow, 'issuedAt' | 'revokedAt'> & { issuedAt: string; revokedAt: string | null };

/**
 * With a grant (decision 0230): the film goes to this phone, decided inside the grant's transaction (GrantAlongside),
 * so the link and its licence cost one transaction. A live licence on another phone moves here — the grant already
 * decided this person may have the file now, and a completed film reaches a new phone only through a re-download.
 * The key is read (and refused if unsound) before the grant; the licence is signed after it commits.
 */
export function licenceAlongGrant(
  deps: LicenceDeps,
  downloader: Downloader,
  phone: LicencePhone,
  /** How a first licence came: with the film's download, or with a film received from another phone (19/22). */
  firstWay: Extract<LicenceWay, 'download' | 'transfer'> = 'download',
) {
  const device = readDeviceKey(phone.devicePublicKey);
  return {
    device,
    // The live licence of the caller's download of the movie the grant reads: the common case, a phone asking again
    // for the licence it holds, writes nothing.
    // Written out with aliases: drizzle renders a column of a one-table select unqualified.
    read: sql<SeenLicence | null>`(select json_build_object('id', l.id, 'downloadId', l.download_id, 'movieId', l.movie_id, 'userId', l.user_id, 'agentId', l.agent_id, 'deviceId', l.device_id, 'deviceKeyId', l.device_key_id, 'way', l.way, 'issuedAt', l.issued_at, 'revokedAt', l.revoked_at, 'revokedReason', l.revoked_reason) from licences l join downloads d on d.id = l.download_id where l.revoked_at is null and d.movie_id = "movies"."id" and ${ownedBy(downloader, 'd')})`,
    // A first download has no licence anywhere: its licence goes in with it, in the same statement.
    withNewDownload(tx: Tx, download: { id: string; movieId: string }) {
      return {
        insert: tx
          .insert(licences)
          .values({
            downloadId: download.id,
            movieId: download.movieId,
            ...subjectColumns(downloader),
            deviceId: phone.deviceId,
            deviceKeyId: device.id,
            way: firstWay,
            issuedAt: deps.clock.now(),
          })
          .returning(),
        written: (row: Record<string, unknown>) => ({ row: row as LicenceRow, issued: true }),
      };
    },
    async write(
      tx: Tx,
      granted: { download: { id: string }; movie: { id: string }; redownloads: unknown },
      seen: SeenLicence | string | null,
      ref: { redownload?: boolean },
    ): Promise<{ row: LicenceRow; issued: boolean }> {
      const held = seenLicence(seen);
      if (
        held &&
        held.downloadId === granted.download.id &&
        held.deviceId === phone.deviceId &&
        held.deviceKeyId === device.id
      ) {
        return { row: held, issued: false };
      }
      const target = { downloadId: granted.download.id, movieId: granted.movie.id };
      const now = deps.clock.now();
      if (!held) {
        // No licence yet (the common first download): one insert; a racing grant that licensed it first wins.
        const [row] = await tx
          .insert(licences)
          .values({
            ...target,
            ...subjectColumns(downloader),
            deviceId: phone.deviceId,
            deviceKeyId: device.id,
            way: firstWay,
            issuedAt: now,
          })
          .onConflictDoNothing({ target: licences.downloadId, where: sql.raw('revoked_at is null') })
          .returning();
        if (row) return { row, issued: true };
      }
      const redownload = granted.redownloads !== null && ref.redownload === true;
      const fromOtherPhone = { way: redownload ? 'redownload' : 'download', spends: false } as const;
      return writeLicenceIn(
        tx,
        deps,
        downloader,
        { deviceId: phone.deviceId, deviceKeyId: device.id, target, fromOtherPhone },
        now,
      );
    },
  };
}

function seenLicence(seen: SeenLicence | string | null): LicenceRow | null {
  if (!seen) return null;
  const row = (typeof seen === 'string' ? JSON.parse(seen) : seen) as SeenLicence;
  return { ...row, issuedAt: new Date(row.issuedAt), revokedAt: row.revokedAt ? new Date(row.revokedAt) : null };
}

const subjectColumns = (downloader: Downloader) =>
  downloader.kind === 'user' ? { userId: downloader.id } : { agentId: downloader.id };

/** After the grant committed: the licence row as the phone gets it (counted if it was issued now). */
export async function licenceOfRow(
  deps: LicenceDeps,
  downloader: Downloader,
  device: DeviceKey,
  { row, issued }: { row: LicenceRow; issued: boolean },
): Promise<Licence> {
  if (issued) deps.metrics.licencesIssued.inc({ way: row.way });
  return signedLicence(deps, downloader, device, row);
}

/**
 * Without a grant: the licence of a film this person already downloaded (made before licences, or a phone that lost
 * its licence but kept the file). Never moves a film from another phone unless asked to `move`: then it is a
 * re-download without the bytes (the phone still holds the encrypted file), and spends one of the person's
 * re-downloads — unless the licence is already on this phone.
 */
export async function licenceOfDownloaded(
  deps: LicenceDeps,
  downloader: Downloader,
  phone: LicencePhone,
  movieId: string,
  { move = false }: { move?: boolean } = {},
): Promise<Licence> {
  const [download] = await deps.database.db
    .select({ id: downloads.id, takenDownAt: movies.takenDownAt })
    .from(downloads)
    .innerJoin(movies, eq(movies.id, downloads.movieId))
    .where(and(ownDownloads(downloader), eq(downloads.movieId, movieId)));
  if (!download) throw new AppError('not_found', NO_LICENCE_WITHOUT_DOWNLOAD);
  if (download.takenDownAt) throw new AppError('forbidden', FILM_TAKEN_DOWN);
  return issue(deps, downloader, phone, { downloadId: download.id, movieId }, move ? MOVE : null);
}

const MOVE = { way: 'redownload', spends: true } as const satisfies FromOtherPhone;

async function issue(
  deps: LicenceDeps,
  downloader: Downloader,
  phone: LicencePhone,
  target: { downloadId: string; movieId: string },
  fromOtherPhone: FromOtherPhone,
): Promise<Licence> {
  const device = readDeviceKey(phone.devicePublicKey);
  // The common case, a phone asking again for the licence it holds, writes nothing and takes no lock.
  const held = await liveLicence(deps.database.db, target.downloadId);
  const row =
    held && held.deviceId === phone.deviceId && held.deviceKeyId === device.id
      ? held
      : await writeLicence(deps, downloader, {
          deviceId: phone.deviceId,
          deviceKeyId: device.id,
          target,
          fromOtherPhone,
        });
  return signedLicence(deps, downloader, device, row);
}

/** The licence a phone keeps: the title key wrapped for its key, and the claims signed. */
async function signedLicence(
  deps: LicenceDeps,
  downloader: Downloader,
  device: DeviceKey,
  row: LicenceRow,
): Promise<Licence> {
  const contentKey = await deps.contentKeys.keyOf(row.movieId);
  const wrappedKey = wrapForDevice(device, contentKey).toString('base64url');
  const token = await deps.licenceSigner.sign({
    v: 1,
    lid: row.id,
    mid: row.movieId,
    sub: subjectOf(downloader),
    dev: row.deviceId,
    kid: row.deviceKeyId,
    way: row.way,
    iat: Math.floor(row.issuedAt.getTime() / 1000),
    key: wrappedKey,
  });
  return {
    id: row.id,
    movieId: row.movieId,
    deviceId: row.deviceId,
    deviceKeyId: row.deviceKeyId,
    wrappedKey,
    way: row.way,
    issuedAt: row.issuedAt.toISOString(),
    token,
  };
}

/**
 * The licence row for this phone, under the download's row lock: twenty requests at once leave one live licence, and
 * a move spends one re-download (the first finds the licence elsewhere; the rest find it here).
 */
async function writeLicence(deps: LicenceDeps, downloader: Downloader, ask: LicenceAsk): Promise<LicenceRow> {
  const now = deps.clock.now();
  const { row, issued } = await transactionRetrying(deps.database.db, (tx) =>
    writeLicenceIn(tx, deps, downloader, ask, now),
  );
  if (issued) deps.metrics.licencesIssued.inc({ way: row.way });
  return row;
}

/** What a phone asks a licence for: itself, its key, the download, and how a licence elsewhere may come to it. */
interface LicenceAsk {
  deviceId: string;
  deviceKeyId: string;
  target: { downloadId: string; movieId: string };
  fromOtherPhone: FromOtherPhone;
}

/** writeLicence's work inside a transaction (the grant's, or its own). */
async function writeLicenceIn(
  tx: Tx,
  deps: LicenceDeps,
  downloader: Downloader,
  { deviceId, deviceKeyId, target, fromOtherPhone }: LicenceAsk,
  now: Date,
): Promise<{ row: LicenceRow; issued: boolean }> {
  await tx.select({ id: downloads.id }).from(downloads).where(eq(downloads.id, target.downloadId)).for('update');
  const live = await liveLicence(tx, target.downloadId);
  if (live && live.deviceId === deviceId) {
    // The same phone; a new key means it lost its old one (storage cleared), so the licence follows the key.
    if (live.deviceKeyId === deviceKeyId) return { row: live, issued: false };
    const [row] = await tx.update(licences).set({ deviceKeyId }).where(eq(licences.id, live.id)).returning();
    return { row: row!, issued: false };
  }
  if (live && !fromOtherPhone) throw new AppError('licence_elsewhere', LICENCE_ELSEWHERE);
  // A move spends when the licence is on another phone, or was moved away and is live nowhere; a film never
  // licensed (or licensed again after a take-down) is licensed as without `move`.
  const moves =
    fromOtherPhone?.spends === true && (live !== undefined || (await lastRevokedMoved(tx, target.downloadId)));
  if (moves) {
    await spendRedownload(tx, downloader, target.downloadId, {
      perMonth: deps.config.redownloadsPerMonth,
      now,
      completed: true,
    });
  }
  if (live) {
    await tx.update(licences).set({ revokedAt: now, revokedReason: 'moved' }).where(eq(licences.id, live.id));
  }
  const [row] = await tx
    .insert(licences)
    .values({
      downloadId: target.downloadId,
      movieId: target.movieId,
      ...(downloader.kind === 'user' ? { userId: downloader.id } : { agentId: downloader.id }),
      deviceId,
      deviceKeyId,
      way: moves ? 'redownload' : live ? (fromOtherPhone?.way ?? 'download') : 'download',
      issuedAt: now,
    })
    .returning();
  return { row: row!, issued: true };
}

async function liveLicence(exec: Executor, downloadId: string): Promise<LicenceRow | undefined> {
  const [row] = await exec
    .select()
    .from(licences)
    .where(and(eq(licences.downloadId, downloadId), isNull(licences.revokedAt)));
  return row;
}

/** Whether the download's licence was last revoked because it moved to another phone. */
async function lastRevokedMoved(tx: Tx, downloadId: string): Promise<boolean> {
  const [row] = await tx
    .select({ reason: licences.revokedReason })
    .from(licences)
    .where(and(eq(licences.downloadId, downloadId), isNotNull(licences.revokedAt)))
    .orderBy(desc(licences.revokedAt))
    .limit(1);
  return row?.reason === 'moved';
}
