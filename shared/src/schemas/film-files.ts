import { z } from 'zod';
import { Id } from './common.ts';
import { MovieRating } from './ratings.ts';
import { DownloadSize } from './renditions.ts';
import { DevicePublicKey } from './licences.ts';

/**
 * A film that travels between phones (issue 19/22, decision 0243): every encrypted film file has a manifest signed by
 * the server — which film and file it is, its length, and the SHA-256 of each 1 MiB chunk — so a phone that receives
 * the bytes from another phone, over a hotspot or as a `.filamu` file, can tell they are Filamu's film and whole.
 */

/** The chunk a manifest hashes and a transfer checks: 1 MiB (a 320 MB film has 320). */
export const FILM_CHUNK_BYTES = 1_048_576;
/** SHA-256. */
export const FILM_CHUNK_HASH_BYTES = 32;
/** `.filamu` files begin with these 8 bytes: "FILAMU", a zero, and the format's version (1). */
export const FILM_FILE_MAGIC = [0x46, 0x49, 0x4c, 0x41, 0x4d, 0x55, 0x00, 0x01] as const;
/** The magic, then the manifest's length as a 32-bit big-endian number, then the manifest, then the film. */
export const FILM_FILE_HEADER_BYTES = FILM_FILE_MAGIC.length + 4;
/** A film of 16 GiB has a manifest of about 0.9 MiB: anything longer is not a manifest. */
export const MAX_FILM_MANIFEST_BYTES = 1_048_576;
/** The longest film file a manifest may describe (16 GiB): bounds the hashes a phone checks. */
export const MAX_FILM_FILE_BYTES = 16 * 1024 ** 3;

/** How many chunks a file of `bytes` has. */
export const filmChunkCount = (bytes: number): number => Math.ceil(bytes / FILM_CHUNK_BYTES);

/** Base64url without padding of `n` bytes is ⌈4n/3⌉ characters. */
const base64urlLength = (bytes: number) => Math.ceil((bytes * 4) / 3);

/** What the server signs (a compact JWS, ES256, with the licence key): the claims of one film file. */
export const FilmManifestClaims = z
  .object({
    v: z.literal(1),
    /** The film, and what a receiving phone shows of it before it is online (signed, so it cannot be renamed). */
    mid: Id,
    title: z.string().min(1).max(200),
    category: z.enum(['Kinayuganda', 'English']),
    vj: z.string().max(120),
    rating: MovieRating,
    /** Which of the film's files, and its nonce (base64url, 8 bytes): what a licence's key opens. */
    size: DownloadSize,
    nonce: z.string().regex(/^[A-Za-z0-9_-]{11}$/),
    bytes: z.number().int().positive().max(MAX_FILM_FILE_BYTES),
    chunk: z.literal(FILM_CHUNK_BYTES),
    /** Every chunk's SHA-256, one after another, as one base64url string. */
    hashes: z.string().regex(/^[A-Za-z0-9_-]+$/),
    /** Seconds since 1970: when the manifest was signed. */
    iat: z.number().int(),
    /** The agent whose phone the file came from (their kiosk's films are counted in the console, decision 0246). */
    agent: Id.optional(),
  })
  .refine((claims) => claims.hashes.length === base64urlLength(filmChunkCount(claims.bytes) * FILM_CHUNK_HASH_BYTES), {
    message: 'The manifest’s hashes do not cover the film.',
    path: ['hashes'],
  });
export type FilmManifestClaims = z.infer<typeof FilmManifestClaims>;

/** Which of the film's files: the size and nonce the phone holds (a file re-encoded since keeps its manifest). */
export const FilmManifestQuery = z.object({
  size: DownloadSize,
  nonce: z.string().regex(/^[A-Za-z0-9_-]{11}$/, 'nonce must be the file’s 8-byte nonce in base64url.'),
});
export type FilmManifestQuery = z.input<typeof FilmManifestQuery>;

/** The manifest of the film file the caller downloaded (or is downloading), to keep with the film. */
export const FilmManifestResponse = z.object({
  /** The compact JWS, as it goes into a `.filamu` file's header. */
  manifest: z.string(),
});
export type FilmManifestResponse = z.infer<typeof FilmManifestResponse>;

/** The key that signs licences and manifests (ES256), as a public JWK: phones check what they receive with it. */
export const SigningKeyResponse = z.object({
  jwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }),
});
export type SigningKeyResponse = z.infer<typeof SigningKeyResponse>;

/** A compact JWS is three base64url parts; a manifest is at most 1 MiB. */
const ManifestToken = z
  .string()
  .max(MAX_FILM_MANIFEST_BYTES, 'This film file’s manifest is too long.')
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'This film file’s manifest is damaged.');

/**
 * A film that came from another phone asks for its licence: the manifest it came with (the server checks its own
 * signature: the bytes are a file Filamu made of that film, whichever encoding), and this phone's key.
 */
export const ReceivedLicenceRequest = z.object({
  manifest: ManifestToken,
  devicePublicKey: DevicePublicKey,
});
export type ReceivedLicenceRequest = z.input<typeof ReceivedLicenceRequest>;
