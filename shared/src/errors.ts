import { z } from 'zod';
import { ProofChallenge } from './proof-of-work.ts';

/** Every error the API answers, with the HTTP status it travels with. */
export const ERROR_STATUS = {
  validation_error: 400,
  bad_request: 400,
  /** A subtitle file that is not usable SRT or WebVTT; the message (and `issues`) say which line and why. */
  invalid_subtitles: 400,
  unauthenticated: 401,
  /** A phone number of the other mobile-money network than the method chosen; the message names the right one. */
  wrong_network: 400,
  forbidden: 403,
  /** Downloads need a subscription in force (agents and admins excepted). */
  subscription_required: 403,
  /** English downloads wait until every entitled Kinayuganda movie is downloaded. */
  download_locked: 403,
  /** A title hidden by the parental PIN: enter the PIN first (decision 0170). */
  pin_required: 403,
  /** The parental PIN entered is not the one set; the message says how many tries are left. */
  pin_wrong: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request did not arrive in time (answered before the app runs). */
  request_timeout: 408,
  conflict: 409,
  /** A payment is already waiting for the payer's phone; the message says to approve, resend or cancel it first. */
  payment_pending: 409,
  /** Each movie is downloaded once per person. */
  already_downloaded: 409,
  /** The plan is in its last hours, which the operator does not sell (the message says how many). */
  plan_sale_closed: 409,
  /** This month's re-downloads (and any an admin granted) are used; the message says when they renew. */
  redownload_limit: 409,
  /** The film's licence is on another phone (decision 0230): bringing it here is a re-download. */
  licence_elsewhere: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** The address or headers are over the server's 16 KB (answered before the app runs). */
  headers_too_large: 431,
  throttled: 429,
  /** A rate limit on a costly flow (registration, payments, download links); Retry-After says when. */
  rate_limited: 429,
  /** Too many wrong parental PINs; Retry-After says when it can be tried again. */
  pin_locked: 429,
  /**
   * Many sign-ins or recoveries failed from this network: this one needs a proof of work first (decision 0195). The
   * envelope's `proof` carries the challenge; the app solves it and sends the request again without a tap.
   */
  proof_required: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const FieldIssue = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

export const ApiErrorBody = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    requestId: z.string(),
    issues: z.array(FieldIssue).optional(),
    /** With `proof_required` only. */
    proof: ProofChallenge.optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
