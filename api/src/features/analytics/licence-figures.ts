import { LICENCE_WAYS, type LicenceFigures } from '@filamu/shared';
import { count, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { licences, movies } from '../../db/schema.ts';

/** The operator's licence figures since `since` (decision 0230): issued by way and by film, and revoked by reason. */
export async function licenceFigures(db: Db, since: Date): Promise<LicenceFigures> {
  const issued = count();
  const [byWay, byFilm, [revoked]] = await Promise.all([
    db.select({ way: licences.way, issued }).from(licences).where(gte(licences.issuedAt, since)).groupBy(licences.way),
    db
      .select({ movieId: movies.id, title: movies.title, issued })
      .from(licences)
      .innerJoin(movies, eq(movies.id, licences.movieId))
      .where(gte(licences.issuedAt, since))
      .groupBy(movies.id, movies.title)
      .orderBy(desc(issued), movies.title)
      .limit(10),
    db
      .select({
        moved: sql<number>`count(*) filter (where ${licences.revokedReason} = 'moved')`,
        takenDown: sql<number>`count(*) filter (where ${licences.revokedReason} = 'taken_down')`,
      })
      .from(licences)
      .where(gte(licences.revokedAt, since)),
  ]);
  return {
    byWay: LICENCE_WAYS.map((way) => ({ way, issued: Number(byWay.find((row) => row.way === way)?.issued ?? 0) })),
    byFilm: byFilm.map((row) => ({ movieId: row.movieId, title: row.title, issued: Number(row.issued) })),
    revoked: { moved: Number(revoked?.moved ?? 0), takenDown: Number(revoked?.takenDown ?? 0) },
  };
}
