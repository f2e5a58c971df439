/** Benefit lists as product §1 presents them. */
export const SUBSCRIBER_BENEFITS = ['Unlimited downloads', '4K quality', 'Priority support', 'Early access'];
export const FREE_BENEFITS = ['Limited access', 'Standard quality', 'Basic support'];
export const AGENT_BENEFITS = [
  'Full library access',
  'Unlimited downloads',
  'No subscription required',
  'No download restrictions',
  'All categories',
];
/** Admins: what the download rules give staff (api/src/features/downloads/entitlement.ts). */
export const STAFF_BENEFITS = ['Full library access', 'No subscription required', 'All categories'];
