import {
  canonicalUgandaPhone,
  FILM_TAKEN_DOWN,
  formatUnlockCode,
  type ParentalHides,
  parseRequestCode,
  SUPPORT,
} from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Executor } from '../../db/client.ts';
import { agents, movies, parentalPins, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { licenceForReceivedFilm, type ReceivedDeps } from '../downloads/received.ts';
import { type Downloader, downloaderFromRow } from '../movies/entitlement.ts';
import { countHits } from '../rate-limit/limiter.ts';
import { ussdUnlocks } from '../rate-limit/limits.ts';
import { waitPhrase } from '../rate-limit/wait-phrase.ts';
import { type SealedKeyRoots, unlockCodeOf } from '../sealed-keys/crypto.ts';
import { sealedKeyPhoneByDigits } from '../sealed-keys/phones.ts';
import { end, gsmText, type UssdAnswer } from './protocol.ts';

export interface UnlockDeps extends ReceivedDeps {
  sealedKeyRoots: SealedKeyRoots;
  logger: Logger;
}

/** Every screen the unlock can end on (GSM-7, under 182 characters; ussd.test.ts checks each). */
export const UNLOCK_SCREENS = {
  notUganda: 'Filamu unlocks films for Ugandan mobile numbers only.',
  tooMany: (wait: string) => `Too many codes asked for from this number. Please try again ${wait}.`,
  notACode: 'That is not a Filamu code. Type only the digits of the code on your Filamu screen.',
  mistyped: 'That code has a mistake. Check each digit on your Filamu screen and dial again.',
  unknownNumber:
    'This number is not on a Filamu account. Dial from the number you registered with, or add it in Filamu while online.',
  unprovenNumber:
    'This number is not confirmed yet. In Filamu, go online once and confirm your phone number, then dial again.',
  twoAccounts: `This number is on two Filamu accounts. Call Filamu support on ${SUPPORT.phone}.`,
  unknownFilm: (n: number) => `No Filamu film has the number ${n}. Check the code on your Filamu screen.`,
  takenDown: FILM_TAKEN_DOWN,
  unknownPhone:
    'This code is not from a phone signed in to your account. Open Filamu on that phone while online once, then dial again.',
  noPlan: 'You need a Filamu plan for this film. Buy a plan, then dial again for the code.',
  notInPlan: 'This film is not in your plan. Choose a plan that has it, then dial again.',
  kinayugandaFirst: 'Get all your Kinayuganda films first. English films unlock after them.',
  pin: 'This film is hidden by your parental PIN. Open it in Filamu while online.',
  elsewhere: 'This film is saved on another phone of yours. Play it there, or move it in Filamu while online.',
  notNow: 'Filamu cannot unlock this film right now. Please try again later.',
  unlocked: (title: string, code: string) => `Unlock code for ${title}:\n${code}`,
} as const;

/** The fixed part of the success screen, so the title is cut to what is left of 182 characters. */
const TITLE_ROOM = 182 - UNLOCK_SCREENS.unlocked('', '0000 0000 0000 0000 0000').length;

type Account =
  | { kind: 'user'; id: string }
  | { kind: 'agent'; id: string }
  | { kind: 'none' }
  | { kind: 'unproven' }
  | { kind: 'ambiguous' };

/**
 * The account whose proven number called (decision 0197: never an unproven one). A subscriber's number is proven by a
 * code or a mobile-money payment; an agent's was given by the admin who made the account (decision 0249), so an active
 * agent's counts. A number on both is refused: the USSD service cannot tell whose phone it is.
 */
async function accountOf(exec: Executor, phone: string): Promise<Account> {
  const [user] = await exec
    .select({ id: users.id, proven: users.phoneVerifiedAt })
    .from(users)
    .where(eq(users.phone, phone));
  const [agent] = await exec
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.phone, phone), eq(agents.isActive, true)));
  const provenUser = user?.proven ? user : undefined;
  if (provenUser && agent) return { kind: 'ambiguous' };
  if (provenUser) return { kind: 'user', id: provenUser.id };
  if (agent) return { kind: 'agent', id: agent.id };
  return user ? { kind: 'unproven' } : { kind: 'none' };
}

/** The account as the download rules see it, and what its parental PIN hides (no session here has entered it). */
async function downloaderOfAccount(
  exec: Executor,
  account: { kind: 'user' | 'agent'; id: string },
  now: Date,
): Promise<{ downloader: Downloader; hiddenByPin: ParentalHides | null } | null> {
  if (account.kind === 'agent') {
    return { downloader: downloaderFromRow({ kind: 'agent', agent: { id: account.id } }, now), hiddenByPin: null };
  }
  const [user] = await exec
    .select({
      id: users.id,
      isAdmin: users.isAdmin,
      subscriptionPlanId: users.subscriptionPlanId,
      subscriptionStartDate: users.subscriptionStartDate,
      subscriptionEndDate: users.subscriptionEndDate,
      englishUnlockedAt: users.englishUnlockedAt,
      hides: parentalPins.hides,
    })
    .from(users)
    .leftJoin(parentalPins, eq(parentalPins.userId, users.id))
    .where(eq(users.id, account.id));
  if (!user) return null;
  return { downloader: downloaderFromRow({ kind: 'user', user }, now), hiddenByPin: user.hides ?? null };
}

/** What each refusal of the received film's rules says on the handset. */
function refusalScreen(error: AppError): string | null {
  switch (error.code) {
    case 'subscription_required':
      return UNLOCK_SCREENS.noPlan;
    case 'forbidden':
      return UNLOCK_SCREENS.notInPlan;
    case 'download_locked':
      return UNLOCK_SCREENS.kinayugandaFirst;
    case 'pin_required':
      return UNLOCK_SCREENS.pin;
    case 'licence_elsewhere':
      return UNLOCK_SCREENS.elsewhere;
    case 'unauthenticated':
      return UNLOCK_SCREENS.unknownNumber;
    case 'unavailable':
      return UNLOCK_SCREENS.notNow;
    default:
      return null;
  }
}

/**
 * `1*<code>`: the unlock (decision 0249). The caller's number (from the gateway, not typed) must be the proven number
 * of one account; the code must hold its check digit and name a live film and a phone of that account given a device
 * secret; then the film is that account's received film under every rule of a received film's licence (the plan,
 * Kinayuganda first, the parental PIN, once per person: downloads/received.ts), recorded with its licence for that
 * phone, and the answer is the film's unlock code on that phone. Every unlock asked for counts against the number.
 */
export async function unlockByUssd(deps: UnlockDeps, callerNumber: string, typed: string): Promise<UssdAnswer> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const phone = canonicalUgandaPhone(callerNumber.slice(0, 40));
  if (!phone) return end(UNLOCK_SCREENS.notUganda);
  const refused = await countHits(
    db,
    now,
    [ussdUnlocks.perHour, ussdUnlocks.perDay].map((limit) => ({ limit, subject: phone })),
  );
  if (refused) return end(UNLOCK_SCREENS.tooMany(waitPhrase(refused.retryAfterSeconds)));
  const code = parseRequestCode(typed);
  if (!code.ok) return end(code.reason === 'check' ? UNLOCK_SCREENS.mistyped : UNLOCK_SCREENS.notACode);

  const account = await accountOf(db, phone);
  if (account.kind === 'none') return end(UNLOCK_SCREENS.unknownNumber);
  if (account.kind === 'unproven') return end(UNLOCK_SCREENS.unprovenNumber);
  if (account.kind === 'ambiguous') return end(UNLOCK_SCREENS.twoAccounts);

  const [movie] = await db
    .select({
      id: movies.id,
      title: movies.title,
      isActive: movies.isActive,
      deletedAt: movies.deletedAt,
      takenDownAt: movies.takenDownAt,
    })
    .from(movies)
    .where(eq(movies.shortNumber, code.shortNumber));
  if (!movie || movie.deletedAt) return end(UNLOCK_SCREENS.unknownFilm(code.shortNumber));
  if (movie.takenDownAt) return end(UNLOCK_SCREENS.takenDown);
  if (!movie.isActive) return end(UNLOCK_SCREENS.unknownFilm(code.shortNumber));

  const device = await sealedKeyPhoneByDigits(db, account, code.keyDigits);
  if (!device) return end(UNLOCK_SCREENS.unknownPhone);
  const receiver = await downloaderOfAccount(db, account, now);
  if (!receiver) return end(UNLOCK_SCREENS.unknownNumber);

  try {
    await licenceForReceivedFilm(
      deps,
      { downloader: receiver.downloader, deviceId: device.deviceId, hiddenByPin: receiver.hiddenByPin },
      device.publicKey,
      { movieId: movie.id, fromAgentId: null },
    );
  } catch (error) {
    const screen = error instanceof AppError ? refusalScreen(error) : null;
    if (screen) return end(screen);
    if (error instanceof AppError && error.code === 'not_found')
      return end(UNLOCK_SCREENS.unknownFilm(code.shortNumber));
    deps.logger.error({ err: error, movieId: movie.id }, 'ussd: the unlock failed');
    return end(UNLOCK_SCREENS.notNow);
  }
  const unlockCode = unlockCodeOf(deps.sealedKeyRoots, device.keyId, movie.id);
  return end(UNLOCK_SCREENS.unlocked(gsmText(movie.title, TITLE_ROOM), formatUnlockCode(unlockCode)));
}
