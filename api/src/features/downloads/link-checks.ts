import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { agents, downloads, moviePlans, movies, sessions, users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Principal } from '../../http/principal.ts';
import { downloaderFromRow } from '../movies/entitlement.ts';
import { downloadFileKey } from '../movies/files.ts';
import { liveMovie } from '../movies/movie.ts';
import { MAX_COPIES_PER_GRANT } from './grant-caps.ts';
import { finishing } from './completion.ts';
import { isClosed } from './redownloads.ts';

/**
 * Whether the grant behind a signed `/files` link still stands, asked on every request (local driver): the link
 * carries its download id and its holder (session and credential stamp), both under the HMAC. One indexed query
 * answers, and the verdict is kept VERDICT_TTL_MS per link, so a client reading a movie in many ranges (or 50
 * readers of one) costs one query every few seconds, not one per request.
 */

/**
 * How long a verdict stands. A link outlives its right by at most this: a few seconds of a download that was
 * already under way (the bytes sent in them were paid for when the grant was made), against a query per range
 * request. Decision 0109.
 */
export const VERDICT_TTL_MS = 5_000;
/** Verdicts kept at most (a few hundred bytes each); the oldest go first. */
const MAX_VERDICTS = 10_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A short fingerprint of the holder's password hash: a password change ends the links minted before it even in the
 * session that changed it (which stays signed in). The hash is salted and this is a digest of it, so the link
 * shows nothing a password could be tested against.
 */
function credentialStamp(passwordHash: string): string {
  return createHash('sha256').update('filamu-link-holder\0').update(passwordHash).digest('base64url').slice(0, 16);
}

/** What a download link is minted for: this session, with these credentials. */
export function holderOf(principal: Principal): string {
  const account = principal.kind === 'user' ? principal.user : principal.agent;
  return `${principal.sessionId}.${credentialStamp(account.passwordHash)}`;
}

export class LinkChecks {
  private readonly verdicts = new Map<string, { at: number; verdict: Promise<boolean> }>();

  constructor(private readonly deps: { database: Database; clock: Clock }) {}

  allows(link: { grant: string; holder: string; key: string }): Promise<boolean> {
    const now = this.deps.clock.now().getTime();
    const cacheKey = `${link.grant} ${link.holder} ${link.key}`;
    const cached = this.verdicts.get(cacheKey);
    if (cached && now - cached.at < VERDICT_TTL_MS && now >= cached.at) return cached.verdict;
    // Concurrent requests on a cold link share one query (the promise is cached, not its result).
    const verdict = this.decide(link);
    this.verdicts.delete(cacheKey);
    this.verdicts.set(cacheKey, { at: now, verdict });
    verdict.catch(() => this.verdicts.delete(cacheKey));
    if (this.verdicts.size > MAX_VERDICTS) this.verdicts.delete(this.verdicts.keys().next().value!);
    return verdict;
  }

  /**
   * Drops the cached verdicts of a download's links: it completed or spent its copies in this process, so its next
   * request is decided afresh (other processes decide it when their verdict lapses). Rare, so a scan is fine.
   */
  forget(grant: string): void {
    const prefix = `${grant} `;
    for (const key of this.verdicts.keys()) if (key.startsWith(prefix)) this.verdicts.delete(key);
  }

  private async decide(link: { grant: string; holder: string; key: string }): Promise<boolean> {
    const [sessionId, stamp] = link.holder.split('.');
    if (!UUID.test(link.grant) || !sessionId || !UUID.test(sessionId) || !stamp) return false;
    const now = this.deps.clock.now();
    const [row] = await this.deps.database.db
      .select({
        status: downloads.status,
        redownloadStartedAt: downloads.redownloadStartedAt,
        confirmedAt: downloads.confirmedAt,
        copiesSent: downloads.copiesSent,
        userId: downloads.userId,
        agentId: downloads.agentId,
        key: downloadFileKey(),
        movieLive: sql<boolean>`${liveMovie()}`,
        session: {
          userId: sessions.userId,
          agentId: sessions.agentId,
          revokedAt: sessions.revokedAt,
          expiresAt: sessions.expiresAt,
        },
        user: users,
        agent: agents,
        inPlan: sql<boolean>`exists (select 1 from ${moviePlans} where ${moviePlans.movieId} = ${downloads.movieId} and ${moviePlans.planId} = ${users.subscriptionPlanId})`,
      })
      .from(downloads)
      .innerJoin(movies, eq(movies.id, downloads.movieId))
      .innerJoin(sessions, eq(sessions.id, sessionId))
      .leftJoin(users, eq(users.id, downloads.userId))
      .leftJoin(agents, eq(agents.id, downloads.agentId))
      .where(eq(downloads.id, link.grant));
    // A download the server completed but the phone has not confirmed may still fetch what it lost (decision 0213).
    if (!row || (isClosed(row) && !finishing(row)) || row.key !== link.key || !row.movieLive) return false;
    // The grant sent all the copies it may (decision 0191): the app asks for a new link and is told why.
    if (row.copiesSent >= MAX_COPIES_PER_GRANT) return false;
    const { session } = row;
    if (session.revokedAt !== null || session.expiresAt <= now) return false;
    if (row.user && session.userId === row.userId) {
      if (credentialStamp(row.user.passwordHash) !== stamp) return false;
      const downloader = downloaderFromRow({ kind: 'user', user: row.user }, now);
      return downloader.subscribed && (downloader.staff || row.inPlan);
    }
    if (row.agent && session.agentId === row.agentId) {
      return row.agent.isActive && credentialStamp(row.agent.passwordHash) === stamp;
    }
    return false;
  }
}
