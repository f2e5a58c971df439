import { z } from 'zod';
import { canonicalUgandaPhone } from '../phone.ts';
import { ProofSolution } from '../proof-of-work.ts';
import { ParentalPinStatus } from './parental-pin.ts';
import { DeviceId, Email, FullName, GivenPassword, IsoDateTime, Language, NewPassword, UgandaPhone } from './common.ts';

export const AGENT_PLAN_LABEL = 'Agent Access';

export const RegisterRequest = z.object({
  email: Email,
  password: NewPassword,
  fullName: FullName,
  phone: UgandaPhone,
  currentDeviceId: DeviceId.optional(),
  /** The language shown on the phone that registers (decision 0258); English when absent. */
  language: Language.optional(),
});
export type RegisterRequest = z.input<typeof RegisterRequest>;

/** Said when a sign-in names neither an email nor a Uganda phone number: nobody could have that account. */
export const SIGN_IN_IDENTIFIER_HINT = 'Enter your email or your phone number, like 0772 123 456.';
export const AGENT_SIGN_IN_HINT = 'Agents sign in with their email, like name@example.com.';

/** Looks like an email (something@something): checked by shape only, never against the accounts. */
export function looksLikeSignInEmail(value: string): boolean {
  const at = value.indexOf('@');
  return at > 0 && at < value.length - 1;
}

/**
 * What a sign-in identifier can be: an email, or a Uganda phone number in any spelling the account's could have
 * been stored from (the product's rule, so no registered number is ever refused here).
 */
export function isSignInIdentifier(value: string): boolean {
  const trimmed = value.trim();
  return looksLikeSignInEmail(trimmed) || canonicalUgandaPhone(trimmed) !== null;
}

export const LoginRequest = z.object({
  identifier: z
    .string({ message: 'Email or phone is required.' })
    .trim()
    .min(1, 'Email or phone is required.')
    .max(254)
    .refine(isSignInIdentifier, SIGN_IN_IDENTIFIER_HINT),
  password: GivenPassword,
  currentDeviceId: DeviceId.optional(),
  /** Sent again after a `proof_required` answer, with the solved challenge (decision 0195). */
  proof: ProofSolution.optional(),
});
export type LoginRequest = z.input<typeof LoginRequest>;

export const AgentLoginRequest = z.object({
  email: z
    .string({ message: 'Email is required.' })
    .trim()
    .min(1, 'Email is required.')
    .max(254)
    .refine(looksLikeSignInEmail, AGENT_SIGN_IN_HINT),
  password: GivenPassword,
  currentDeviceId: DeviceId.optional(),
  proof: ProofSolution.optional(),
});
export type AgentLoginRequest = z.input<typeof AgentLoginRequest>;

export const LogoutRequest = z.object({ currentDeviceId: DeviceId.optional() }).optional();

/**
 * The device the current session signed in on, in words a person recognises (docs/decisions/0034): the
 * browser and system read from its User-Agent at sign-in, when it signed in and when it was last active.
 */
export const SessionDevice = z.object({
  /** Chrome, Samsung Internet, Firefox, Opera, Edge, Safari, or 'Unknown browser'. */
  browser: z.string(),
  /** Android, iOS, Windows, macOS, ChromeOS, KaiOS or Linux; null when unknown. */
  system: z.string().nullable(),
  signedInAt: IsoDateTime,
  lastActiveAt: IsoDateTime,
});
export type SessionDevice = z.infer<typeof SessionDevice>;

export const UserProfile = z.object({
  kind: z.literal('user'),
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  /**
   * Whether the phone was proven the person's (decision 0197): recovery codes go only to a confirmed number. Absent
   * from older servers and profiles saved before it existed (read as unknown, so nothing nags).
   */
  phoneVerified: z.boolean().optional(),
  isAdmin: z.boolean(),
  isSubscribed: z.boolean(),
  subscriptionPlan: z.string().nullable(),
  /**
   * The features the admin wrote on that plan, shown as the subscriber's benefits; empty without a plan. Absent
   * from older servers and from profiles saved on a phone before it existed.
   */
  subscriptionPlanFeatures: z.array(z.string()).optional(),
  subscription_start_date: IsoDateTime.nullable(),
  subscription_end_date: IsoDateTime.nullable(),
  /** Whole days left until subscription_end_date, rounded up; null without a subscription. */
  daysRemaining: z.number().int().nullable(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  deviceIDs: z.array(z.string()),
  /** The session this profile was loaded with; absent from older servers and sessions saved before it existed. */
  currentDevice: SessionDevice.nullable().optional(),
  /** The parental PIN (decision 0170), kept with the session so the device can ask for it offline; absent from older servers. */
  parentalPin: ParentalPinStatus.optional(),
  /** The account's language (decision 0258): its SMS, push and mail follow it. Absent from older servers. */
  language: Language.optional(),
});
export type UserProfile = z.infer<typeof UserProfile>;

export const AgentProfile = z.object({
  kind: z.literal('agent'),
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  phone: z.string().nullable(),
  isAdmin: z.literal(false),
  isSubscribed: z.literal(true),
  subscriptionPlan: z.literal(AGENT_PLAN_LABEL),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type AgentProfile = z.infer<typeof AgentProfile>;

export const AuthResponse = z.object({ token: z.string(), user: UserProfile });
export type AuthResponse = z.infer<typeof AuthResponse>;

export const AgentAuthResponse = z.object({ token: z.string(), agent: AgentProfile });
export type AgentAuthResponse = z.infer<typeof AgentAuthResponse>;

/** Only these fields can be changed by their owner; anything else is refused. */
/** A new email needs the current password: whoever holds only a session (a borrowed phone) cannot take the account. */
export const UpdateProfileRequest = z
  .strictObject({
    fullName: FullName.optional(),
    email: Email.optional(),
    currentPassword: GivenPassword.optional(),
    language: Language.optional(),
  })
  .refine((value) => value.fullName !== undefined || value.email !== undefined || value.language !== undefined, {
    message: 'No changes',
  })
  .refine((value) => value.email === undefined || value.currentPassword !== undefined, {
    message: 'Enter your current password to change your email.',
    path: ['currentPassword'],
  });
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequest>;

export const ChangePasswordRequest = z.object({
  currentPassword: GivenPassword,
  newPassword: NewPassword,
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

/** Account recovery (decision 0148): where to send a code — the account's email or its registered phone. */
export const RecoveryRequest = z.object({
  identifier: z
    .string({ message: 'Enter your phone number or email.' })
    .trim()
    .min(1, 'Enter your phone number or email.')
    .max(254, 'That is too long for a phone number or email.'),
});
export type RecoveryRequest = z.input<typeof RecoveryRequest>;

/** The same answer whether or not an account exists, so the form never tells who has one. */
export const RecoveryStarted = z.object({
  message: z.string(),
  /** How long a code lives, in minutes. */
  expiresInMinutes: z.number().int(),
});
export type RecoveryStarted = z.infer<typeof RecoveryStarted>;

export const RECOVERY_CODE_LENGTH = 6;

export const ResetPasswordRequest = z.object({
  identifier: RecoveryRequest.shape.identifier,
  code: z
    .string({ message: 'Enter the code we sent you.' })
    .trim()
    .regex(/^\d{6}$/, 'The code is the 6 digits we sent you.'),
  newPassword: NewPassword,
  currentDeviceId: DeviceId.optional(),
  proof: ProofSolution.optional(),
});
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;

/** Changing the account's number (decision 0158): the password first, then a code sent to the new number. */
export const PhoneChangeCodeRequest = z.object({
  newPhone: UgandaPhone,
  currentPassword: GivenPassword,
});
export type PhoneChangeCodeRequest = z.input<typeof PhoneChangeCodeRequest>;

export const PhoneChangeStarted = z.object({
  message: z.string(),
  /** Canonical 256XXXXXXXXX: where the code went. */
  newPhone: z.string(),
  expiresInMinutes: z.number().int(),
});
export type PhoneChangeStarted = z.infer<typeof PhoneChangeStarted>;

export const PhoneChangeRequest = z.object({
  newPhone: UgandaPhone,
  code: ResetPasswordRequest.shape.code,
});
export type PhoneChangeRequest = z.input<typeof PhoneChangeRequest>;

/** "Confirm your phone number" (decision 0197): nothing to send; the code goes to the account's own number. */
export const PhoneProofCodeRequest = z.strictObject({}).optional();
