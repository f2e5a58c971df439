/**
 * What each kind of account gets, said as the download rules decide it (api/src/features/movies/entitlement.ts,
 * docs/decisions/0185): a movie downloads once, English opens after the entitled Kinayuganda movies, staff and
 * agents need no subscription. A subscriber's list is their plan's own features (the profile's
 * `subscriptionPlanFeatures`); PLAN_RULES are what every plan comes with, shown when a saved profile predates them.
 */
const PLAN_RULES = [
  'Download the movies in your plan until it ends',
  'Watch downloaded movies offline on this phone',
  'English movies open once you have downloaded the plan’s Kinayuganda movies',
];

/** Without a plan: what the account can do now, and nothing it cannot. */
export const NO_PLAN_FACTS = [
  'Browse the library',
  'Pick a plan and pay with MTN or Airtel mobile money',
  'Downloads start once a plan is active',
];

export const AGENT_BENEFITS = [
  'Every active movie, no subscription needed',
  'Each movie downloads once to your phone',
  'English movies open once every Kinayuganda movie is downloaded',
];

/** Admins: the same download rules as agents. */
export const STAFF_BENEFITS = [
  'Every active movie, no subscription needed',
  'English movies open once every Kinayuganda movie is downloaded',
];

/** The subscriber's benefits: the plan's features as the admin wrote them, else what every plan comes with. */
export function planBenefits(features: readonly string[] | undefined): string[] {
  const written = (features ?? []).map((f) => f.trim()).filter(Boolean);
  return written.length > 0 ? written : PLAN_RULES;
}
