import {
  type ManageSubscriptionRequest,
  type Subscriber,
  type SubscriberList,
  type SubscriberListQuery,
  type SupportSmsOutcome,
  formatDate,
} from '@filamu/shared';
import { count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor, Database } from '../../db/client.ts';
import { payments, subscriptionPlans, users } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { voidOpenCodes } from '../auth/one-time-codes.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';
import { isSubscribed } from '../auth/profile.ts';
import type { UserRow } from '../../http/principal.ts';
import { MAX_EXTRA_REDOWNLOADS } from '../downloads/redownloads.ts';
import { revokeSessions } from '../auth/sessions.ts';
import { redownloadGrantedText, subscriberPasswordText } from '../sms/texts.ts';
import { findPlan } from '../plans/plans.ts';
import { activateSubscription, deactivateSubscription } from '../plans/subscription.ts';
import type { Clock } from '../../lib/clock.ts';
import { recordSupportAction, type SupportDeps } from './support.ts';

interface SubscriberDeps {
  database: Database;
  clock: Clock;
}

const PROTECTED = 'The protected admin account cannot be managed.';

const subscriberColumns = {
  user: users,
  planName: subscriptionPlans.planName,
};

const toSubscriber = ({ user, planName }: { user: UserRow; planName: string | null }, now: Date): Subscriber => ({
  id: user.id,
  email: user.email,
  full_name: user.fullName,
  phone: user.phone,
  phone_confirmed: user.phone !== null && user.phoneVerifiedAt !== null,
  issubscribed: isSubscribed(user, now),
  subscription_plan: planName,
  subscription_plan_id: user.subscriptionPlanId,
  subscription_start_date: user.subscriptionStartDate?.toISOString() ?? null,
  subscription_end_date: user.subscriptionEndDate?.toISOString() ?? null,
  is_admin: user.isAdmin,
  is_protected: user.isProtected,
  extra_redownloads: user.extraRedownloads,
  created_at: user.createdAt.toISOString(),
});

async function findSubscriber(exec: Executor, id: string, now: Date): Promise<Subscriber> {
  const [row] = await exec
    .select(subscriberColumns)
    .from(users)
    .leftJoin(subscriptionPlans, eq(subscriptionPlans.id, users.subscriptionPlanId))
    .where(eq(users.id, id));
  if (!row) throw notFound('Subscriber');
  return toSubscriber(row, now);
}

/** A user an admin may act on: it exists and is not the protected admin. Locks the row. */
async function manageableUser(exec: Executor, id: string): Promise<UserRow> {
  const [user] = await exec.select().from(users).where(eq(users.id, id)).for('update');
  if (!user) throw notFound('Subscriber');
  if (user.isProtected) throw forbidden(PROTECTED);
  return user;
}

/** `%`, `_` and `\` typed by a person match themselves, not any character. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * User accounts (admins too), newest first, optionally narrowed by a substring of name, email or phone
 * and cut into pages (decision 0055); without `pageSize` every match comes back.
 */
export async function listSubscribers(
  deps: SubscriberDeps,
  query: z.output<typeof SubscriberListQuery>,
): Promise<z.output<typeof SubscriberList>> {
  const now = deps.clock.now();
  const pattern = query.search ? likePattern(query.search) : null;
  // Phones are stored as 256…; an admin is as likely to type the local 07… form.
  const localPhone = query.search?.match(/^0(\d+)$/);
  const filter = pattern
    ? or(
        ilike(users.fullName, pattern),
        ilike(users.email, pattern),
        ilike(users.phone, localPhone ? likePattern(`256${localPhone[1]}`) : pattern),
      )
    : undefined;
  const rowsQuery = deps.database.db
    .select(subscriberColumns)
    .from(users)
    .leftJoin(subscriptionPlans, eq(subscriptionPlans.id, users.subscriptionPlanId))
    .where(filter)
    .orderBy(desc(users.createdAt), desc(users.id));
  const pageSize = query.pageSize ?? null;
  const [rows, [counted]] = await Promise.all([
    pageSize === null ? rowsQuery : rowsQuery.limit(pageSize).offset((query.page - 1) * pageSize),
    deps.database.db.select({ n: count() }).from(users).where(filter),
  ]);
  return {
    subscribers: rows.map((row) => toSubscriber(row, now)),
    total: Number(counted?.n ?? 0),
    page: pageSize === null ? 1 : query.page,
    pageSize,
  };
}

/** Puts a user on a plan until the plan's expiry, or ends their subscription now. */
export async function manageSubscription(
  deps: SubscriberDeps,
  id: string,
  input: z.output<typeof ManageSubscriptionRequest>,
): Promise<{ message: string; subscriber: Subscriber }> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const user = await manageableUser(tx, id);
    let message: string;
    if (input.action === 'activate_extend') {
      const plan = await findPlan(tx, input.subscription_plan_id);
      if (plan.globalExpiryAt <= now) {
        throw conflict(
          `The plan "${plan.planName}" expired on ${formatDate(plan.globalExpiryAt)}. Choose a plan that has not expired, or move its expiry date first.`,
        );
      }
      await activateSubscription(tx, user.id, plan, now);
      message = `Subscription activated until ${formatDate(plan.globalExpiryAt)}.`;
    } else {
      await deactivateSubscription(tx, user.id, now);
      message = 'Subscription deactivated.';
    }
    return { message, subscriber: await findSubscriber(tx, user.id, now) };
  });
}

/**
 * One extra re-download for a person who lost a movie (decision 0122): kept until used, taken only after the month's
 * own allowance; at most MAX_EXTRA_REDOWNLOADS unused at once, so a slip of the finger cannot hand out many. The grant
 * goes into the person's history with the admin's note, and a text tells a proven phone (decision 0214).
 */
export async function grantRedownload(
  deps: SupportDeps,
  admin: UserRow,
  id: string,
  note: string | undefined,
): Promise<{ message: string; subscriber: Subscriber; sms: SupportSmsOutcome }> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const user = await manageableUser(tx, id);
    if (user.extraRedownloads >= MAX_EXTRA_REDOWNLOADS) {
      throw conflict(
        `${user.fullName} already has ${user.extraRedownloads} unused extra re-downloads, the most one person may hold.`,
      );
    }
    await tx
      .update(users)
      .set({ extraRedownloads: sql`${users.extraRedownloads} + 1`, updatedAt: now })
      .where(eq(users.id, user.id));
    const sms = await recordSupportAction(deps, tx, {
      user,
      adminId: admin.id,
      action: 'redownload_granted',
      note: note ?? null,
      text: { body: redownloadGrantedText(user.language), purpose: 'redownload_granted' },
    });
    const subscriber = await findSubscriber(tx, user.id, now);
    const unused = subscriber.extra_redownloads;
    return {
      message: `${user.fullName} can download one more movie again (${unused} extra re-download${unused === 1 ? '' : 's'} unused).`,
      subscriber,
      sms,
    };
  });
}

/**
 * Hard-deletes a user (decision 0013): their payments stay for the books without the person
 * (phone cleared here, user_id nulled by the foreign key), and their sessions end with them.
 */
export async function deleteSubscriber(deps: SubscriberDeps, admin: UserRow, id: string): Promise<{ message: string }> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const user = await manageableUser(tx, id);
    if (user.id === admin.id) throw conflict('You cannot delete your own account.');
    await tx.update(payments).set({ phone: null, updatedAt: now }).where(eq(payments.userId, user.id));
    // Sessions go with the user (ON DELETE CASCADE), so their token gets 401 on the very next request.
    await tx.delete(users).where(eq(users.id, user.id));
    return { message: `Subscriber ${user.email} has been deleted successfully` };
  });
}

/**
 * A new generated password for a user who cannot use recovery (decision 0155): answered once to the admin, stored only
 * as its hash, and every session of the account ends, so whoever held the old password is signed out. A proven phone
 * gets it by SMS (the outbox forgets it once sent) and the admin a WhatsApp link; an unproven phone gets nothing, since
 * the number may not be the person's (decision 0214). The history records the reset, never the password.
 */
export async function resetSubscriberPassword(
  deps: SupportDeps,
  admin: UserRow,
  id: string,
): Promise<{ message: string; newPassword: string; sms: SupportSmsOutcome; whatsappLink: string | null }> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const user = await manageableUser(tx, id);
    if (user.id === admin.id) throw conflict('Change your own password from your profile.');
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    await revokeSessions(tx, { kind: 'user', id: user.id }, now, 'password_reset');
    // A code sent before the reset cannot undo it (decision 0198).
    await voidOpenCodes(tx, user.id, now);
    const text = subscriberPasswordText(password, user.language);
    const sms = await recordSupportAction(deps, tx, {
      user,
      adminId: admin.id,
      action: 'password_reset',
      note: null,
      text: { body: text, purpose: 'subscriber_credentials' },
    });
    const proven = user.phone !== null && user.phoneVerifiedAt !== null;
    return {
      message: `${user.fullName} has a new password and has been signed out everywhere. It is shown only now.`,
      newPassword: password,
      sms,
      whatsappLink: proven ? `https://wa.me/${user.phone}?text=${encodeURIComponent(text)}` : null,
    };
  });
}
