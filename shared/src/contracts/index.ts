import type { Contract } from '../contract.ts';
import * as adminPayments from './admin-payments.ts';
import * as agents from './agents.ts';
import * as analytics from './analytics.ts';
import * as auth from './auth.ts';
import * as deviceChecks from './device-checks.ts';
import * as downloads from './downloads.ts';
import * as filmFiles from './film-files.ts';
import * as licences from './licences.ts';
import * as messages from './messages.ts';
import * as movies from './movies.ts';
import * as nightBundle from './night-bundle.ts';
import * as parentalPin from './parental-pin.ts';
import * as payments from './payments.ts';
import * as plans from './plans.ts';
import * as push from './push.ts';
import * as settings from './settings.ts';
import * as subscribers from './subscribers.ts';
import * as subtitles from './subtitles.ts';
import * as system from './system.ts';
import * as unlock from './unlock.ts';
import * as watching from './watching.ts';

export { agents, analytics, auth, downloads, messages, movies, payments, plans, settings, subscribers, system };
export {
  adminPayments,
  deviceChecks,
  filmFiles,
  licences,
  nightBundle,
  parentalPin,
  push,
  subtitles,
  unlock,
  watching,
};

/** Every route the API serves; the OpenAPI document and the auth-matrix tests walk this list. */
export const allContracts: Contract[] = [
  ...Object.values(system),
  ...Object.values(auth),
  ...Object.values(agents),
  ...Object.values(plans),
  ...Object.values(payments),
  ...Object.values(adminPayments),
  ...Object.values(subscribers),
  ...Object.values(movies),
  ...Object.values(subtitles),
  ...Object.values(downloads),
  ...Object.values(licences),
  ...Object.values(filmFiles),
  ...Object.values(unlock),
  ...Object.values(analytics),
  ...Object.values(settings),
  ...Object.values(push),
  ...Object.values(messages),
  ...Object.values(watching),
  ...Object.values(parentalPin),
  ...Object.values(deviceChecks),
  ...Object.values(nightBundle),
];
