import type { UserProfile } from '@filamu/shared';
import { profileT } from './messages.ts';

/**
 * How a signed-in person gets the library, which decides what the dashboard and profile offer
 * (docs/decisions/0035): staff (admins) and agents have full access without a subscription and are never
 * offered a purchase; subscribers can renew or change plan; everyone else is offered a subscription.
 */
export type Access = 'staff' | 'agent' | 'subscriber' | 'free';

/** Staff screens are in English (decision 0258): the label the consoles' own cards use. */
export const STAFF_ACCESS_LABEL = 'Staff access';

/** "Staff access" in the language active now (the profile badge). */
export const staffAccessLabel = () => profileT('profile.access.staff');
/** An account without a subscription in force, in the language active now. There is no trial (decision 0185). */
export const noPlanLabel = () => profileT('profile.access.noPlan');

export function accessOf(user: Pick<UserProfile, 'isAdmin' | 'isSubscribed'> | null, isAgent: boolean): Access {
  if (isAgent) return 'agent';
  if (user?.isAdmin) return 'staff';
  return user?.isSubscribed ? 'subscriber' : 'free';
}

/** The profile's membership badge: "Basic Member", "No plan yet" or "Staff access". */
export function membershipLabel(user: Pick<UserProfile, 'isAdmin' | 'isSubscribed' | 'subscriptionPlan'>): string {
  const access = accessOf(user, false);
  if (access === 'staff') return staffAccessLabel();
  if (access === 'subscriber')
    return user.subscriptionPlan
      ? profileT('profile.access.member', { plan: user.subscriptionPlan })
      : profileT('profile.access.memberNoPlan');
  return noPlanLabel();
}
