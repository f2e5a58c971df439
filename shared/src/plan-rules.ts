/**
 * How plans really work, in the words every customer-facing place uses: the plan cards, checkout, the payment
 * screen, the English section and the terms and refund pages (which a test checks against these and the server's
 * behaviour). One wording, so a page cannot promise what the server does not do.
 */

/** Every subscriber of a plan ends at the plan's one moment (plans are not a number of days from purchase). */
export const PLAN_END_RULE =
  'Every plan ends at one fixed date and time (Kampala time), the same for everyone on it, whenever they pay. ' +
  'The same price therefore buys fewer days as that end comes nearer: each plan shows its exact end and the days ' +
  'and hours left before you pay.';

/** Plans near their end: warned of, and in their last hours no longer sold (the operator sets both, decision 0176). */
export const PLAN_NEAR_END_RULE =
  'When little of a plan is left, we warn you before you pay. In a plan’s last hours it is no longer sold.';

/** Once unlocked, English stays so for the rest of the paid period (decision 0177). */
export const ENGLISH_KEPT_RULE =
  'Once unlocked, English movies stay unlocked until the plan ends, even when new Kinayuganda movies are added; ' +
  'a new plan starts the rule again.';

/** Kinayuganda first, and what happens once English is unlocked. */
export const ENGLISH_UNLOCK_RULE = `English movies unlock once you have downloaded every Kinayuganda movie in your plan. ${ENGLISH_KEPT_RULE}`;

/** The short form a plan card has room for. */
export const ENGLISH_UNLOCK_SHORT = 'English movies unlock after you download every Kinayuganda movie in the plan.';
