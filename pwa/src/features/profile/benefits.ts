import { profileT } from './messages.ts';

/**
 * What each kind of account gets, said as the download rules decide it (api/src/features/movies/entitlement.ts,
 * docs/decisions/0185): a movie downloads once, English opens after the entitled Kinayuganda movies, staff and
 * agents need no subscription. A subscriber's list is their plan's own features (the profile's
 * `subscriptionPlanFeatures`); planRules() are what every plan comes with, shown when a saved profile predates them.
 */
const planRules = () => [
  profileT('profile.benefits.plan.download'),
  profileT('profile.benefits.plan.offline'),
  profileT('profile.benefits.plan.english'),
];

/** Without a plan: what the account can do now, and nothing it cannot. */
export const noPlanFacts = () => [
  profileT('profile.benefits.free.browse'),
  profileT('profile.benefits.free.pay'),
  profileT('profile.benefits.free.downloads'),
];

/** Agents' benefits: the agent's profile is English only (agent screens are not translated). */
export const AGENT_BENEFITS = [
  'Every active movie, no subscription needed',
  'Each movie downloads once to your phone',
  'English movies open once every Kinayuganda movie is downloaded',
];

/** Admins: the same download rules as agents. */
export const staffBenefits = () => [profileT('profile.benefits.staff.all'), profileT('profile.benefits.staff.english')];

/** The subscriber's benefits: the plan's features as the admin wrote them, else what every plan comes with. */
export function planBenefits(features: readonly string[] | undefined): string[] {
  const written = (features ?? []).map((f) => f.trim()).filter(Boolean);
  return written.length > 0 ? written : planRules();
}
