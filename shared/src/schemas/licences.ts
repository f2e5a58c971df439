import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

/**
 * Licences (issue 18/22, decision 0230): a film's content key wrapped for one phone's key pair, signed by the server,
 * saying who, which phone and which title. The phone's public key is RSA-OAEP (SHA-256), sent as its SubjectPublicKeyInfo
 * in base64url; its private key never leaves the phone (made non-extractable by WebCrypto).
 */

export const LICENCE_ELSEWHERE = 'This film was saved on another phone.';
export const NO_LICENCE_WITHOUT_DOWNLOAD = 'Download this film first: a licence comes with its download.';

/** An RSA key of 2048–4096 bits in SPKI form is 294–550 bytes: 392–734 base64url characters. */
export const DevicePublicKey = z
  .string()
  .min(300, 'The phone’s key is not valid.')
  .max(800, 'The phone’s key is not valid.')
  .regex(/^[A-Za-z0-9_-]+$/, 'The phone’s key is not valid.');

/** How the phone came by the film: its download, a re-download (the licence moved from another phone), or 19/22's transfer. */
export const LICENCE_WAYS = ['download', 'redownload', 'transfer'] as const;
export const LicenceWay = z.enum(LICENCE_WAYS);
export type LicenceWay = z.infer<typeof LicenceWay>;

/** Why a licence stopped: it moved to another phone, or its film was taken down for rights. */
export const LICENCE_REVOKED_REASONS = ['moved', 'taken_down'] as const;
/** `deleted` in a check: the licence is not known (any more): its person was deleted, or it never existed. */
export const LicenceRevokedReason = z.enum([...LICENCE_REVOKED_REASONS, 'deleted']);
export type LicenceRevokedReason = z.infer<typeof LicenceRevokedReason>;

/** What the phone keeps with the film: enough to play it offline, and the signed form of the same facts. */
export const Licence = z.object({
  id: Id,
  movieId: Id,
  /** The phone (the session's device id) and which of its keys: the key's SHA-256, base64url. */
  deviceId: z.string(),
  deviceKeyId: z.string(),
  /** The title's content key, RSA-OAEP-wrapped for the phone's key, base64url: only that phone can unwrap it. */
  wrappedKey: z.string(),
  way: LicenceWay,
  issuedAt: IsoDateTime,
  /** The same facts signed by the server (a compact JWS, ES256), so another phone or an agent can check them. */
  token: z.string(),
});
export type Licence = z.infer<typeof Licence>;

/** A licence for a film the person downloaded; `move` brings it to this phone from another, as a re-download. */
export const LicenceRequest = z.object({
  movieId: Id,
  devicePublicKey: DevicePublicKey,
  move: z.boolean().default(false),
});
export type LicenceRequest = z.input<typeof LicenceRequest>;

/**
 * The online check: which of the phone's licences still hold. It needs no session — a phone signed out by the
 * single-device rule keeps playing what it holds, and must still hear that a licence was revoked.
 */
export const LicenceCheckRequest = z.object({
  ids: z.array(Id).max(500, 'Too many licences in one check.'),
});
export type LicenceCheckRequest = z.input<typeof LicenceCheckRequest>;

export const LicenceCheckResponse = z.object({
  /** The licences asked about that no longer hold, and why; the rest still do. */
  revoked: z.array(z.object({ id: Id, reason: LicenceRevokedReason })),
});
export type LicenceCheckResponse = z.infer<typeof LicenceCheckResponse>;

export const FILM_TAKEN_DOWN = 'This film was taken down by Filamu and can no longer be played.';

/** An admin takes a film down for rights (decision 0231): it says why, for the record. */
export const TakeDownRequest = z.object({
  reason: z
    .string()
    .trim()
    .min(3, 'Say why the film is taken down (at least 3 characters).')
    .max(300, 'Keep the reason under 300 characters.'),
});
export type TakeDownRequest = z.input<typeof TakeDownRequest>;

export const TakeDownResponse = z.object({
  message: z.string(),
  /** Licences revoked now: the phones holding the film stop playing it at their next online check. */
  revokedLicences: z.number().int(),
});
export type TakeDownResponse = z.infer<typeof TakeDownResponse>;
