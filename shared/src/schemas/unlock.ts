import { z } from 'zod';
import { Id } from './common.ts';
import { DevicePublicKey } from './licences.ts';

/**
 * Unlocking a film with no data (issue 19/22, decisions 0243 and 0249). While online, a signed-in phone fetches its
 * device secret (wrapped for its licence key) and a sealed key for every live film; offline, the person dials Filamu's
 * USSD service, types the film's request code, and gets the unlock code that opens that film's sealed key.
 */

/** Sealed keys are handed out a page at a time, in short-number order. */
export const SEALED_KEYS_PAGE = 500;

export const SealedKeysRequest = z.object({
  devicePublicKey: DevicePublicKey,
  /** Only films numbered after this one: 0 for all, or the highest short number the phone holds, for the new ones. */
  after: z.number().int().min(0).max(9_999_999).default(0),
});
export type SealedKeysRequest = z.input<typeof SealedKeysRequest>;

export const SealedFilmKey = z.object({
  movieId: Id,
  /** The number a person types in the request code. */
  shortNumber: z.number().int(),
  /** The film's key, AES-KW-wrapped under HKDF(device secret, salt = unlock code, info), base64url: 24 bytes. */
  sealedKey: z.string(),
});
export type SealedFilmKey = z.infer<typeof SealedFilmKey>;

export const SealedKeysResponse = z.object({
  /** The phone key these are for: its SHA-256, base64url (as licences say), and the three digits request codes carry. */
  deviceKeyId: z.string(),
  keyDigits: z.string(),
  /** The device secret (32 bytes), RSA-OAEP-wrapped for the phone's key, base64url: unwrap it as an HKDF key. */
  wrappedDeviceSecret: z.string(),
  films: z.array(SealedFilmKey),
  /** Ask again with `after: next` for the rest; null when this page was the last. */
  next: z.number().int().nullable(),
});
export type SealedKeysResponse = z.infer<typeof SealedKeysResponse>;

/**
 * What Africa's Talking POSTs (form-encoded) to the USSD callback: the session, the code dialled, the caller's number
 * (`+256…`), the network, and everything typed in the session so far joined with `*`. Bounded: a USSD string is at
 * most 182 characters, so each field is far longer than any real one.
 */
export const UssdCallbackRequest = z.object({
  sessionId: z.string().min(1).max(100),
  serviceCode: z.string().min(1).max(40),
  phoneNumber: z.string().min(1).max(40),
  networkCode: z.string().max(20).optional(),
  text: z.string().max(300).default(''),
});
export type UssdCallbackRequest = z.infer<typeof UssdCallbackRequest>;

/** The longest USSD screen (GSM-7 characters). */
export const USSD_SCREEN_CHARACTERS = 182;

/** The USSD simulator's dial (simulator mode only): a number and what the person types, screen by screen. */
export const UssdDialRequest = z.object({
  phoneNumber: z.string().trim().min(1).max(20),
  inputs: z.array(z.string().max(40)).max(8).default([]),
});
export type UssdDialRequest = z.input<typeof UssdDialRequest>;

export const UssdScreen = z.object({
  /** What was typed before this screen came (null for the first, which the dial brings). */
  input: z.string().nullable(),
  /** `CON`: the menu waits for an answer; `END`: the session is over. */
  kind: z.enum(['CON', 'END']),
  text: z.string(),
});
export type UssdScreen = z.infer<typeof UssdScreen>;

export const UssdDialResponse = z.object({
  sessionId: z.string(),
  screens: z.array(UssdScreen),
  /** Inputs left untyped because the session ended first. */
  unused: z.array(z.string()),
});
export type UssdDialResponse = z.infer<typeof UssdDialResponse>;
