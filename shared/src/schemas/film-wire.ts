import { z } from 'zod';
import { Id } from './common.ts';
import { FILM_CHUNK_BYTES, MAX_FILM_FILE_BYTES } from './film-files.ts';

/**
 * What two phones say to each other while a film goes from one to the other over a WebRTC data channel (issue 19/22,
 * decision 0250). Control messages are JSON text; the film's bytes are binary frames of at most 64 KiB, each led by
 * the 4-byte number of the run it belongs to, so frames of a run the receiver gave up (a chunk that failed its hash
 * is asked for again) are told apart and dropped. The receiver leads: it asks for a film's manifest, then for its
 * bytes from where it holds them; the sender only answers. Everything that arrives is from another phone, so it is
 * parsed here with bounds, never trusted.
 */

export const FILM_WIRE_VERSION = 1;
/** The bytes of a binary frame after its run number: small enough for every SCTP stack, big enough to be fast. */
export const FILM_FRAME_BYTES = 65_536;
/** A manifest travels in parts of this many characters (a 16 GiB film's is about 0.9 MiB). */
export const MANIFEST_PART_CHARS = 60_000;
/** The most films one session offers. */
export const MAX_FILMS_OFFERED = 50;
/** The longest control message either side accepts, in characters: a manifest part and its envelope. */
export const MAX_CONTROL_CHARS = MANIFEST_PART_CHARS + 1_000;

const Offset = z.number().int().min(0).max(MAX_FILM_FILE_BYTES);
const ChunkStart = Offset.refine((n) => n % FILM_CHUNK_BYTES === 0, 'A run starts at a chunk.');
const Run = z.number().int().min(1).max(0xffff_ffff);

/** A film the sending phone offers: what the receiving phone shows before it asks for anything. */
export const OfferedFilm = z.object({
  mid: Id,
  title: z.string().min(1).max(200),
  category: z.enum(['Kinayuganda', 'English']),
  bytes: z.number().int().positive().max(MAX_FILM_FILE_BYTES),
});
export type OfferedFilm = z.infer<typeof OfferedFilm>;

/** From the sending phone. */
export const SenderMessage = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('hello'),
    v: z.literal(FILM_WIRE_VERSION),
    films: z.array(OfferedFilm).max(MAX_FILMS_OFFERED),
  }),
  z.object({
    t: z.literal('manifest'),
    mid: Id,
    part: z.number().int().min(0).max(31),
    of: z.number().int().min(1).max(32),
    text: z.string().max(MANIFEST_PART_CHARS),
  }),
  /** The film is no longer on the sending phone (deleted since it was offered). */
  z.object({ t: z.literal('gone'), mid: Id }),
]);
export type SenderMessage = z.infer<typeof SenderMessage>;

/** From the receiving phone. */
export const ReceiverMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('manifest?'), mid: Id }),
  /** Send the film's bytes from `from` (a chunk's start) as run `run`; a new run ends any run before it. */
  z.object({ t: z.literal('send'), mid: Id, from: ChunkStart, run: Run }),
  /** How much of the film is checked and kept: the sender's progress bar shows what truly arrived. */
  z.object({ t: z.literal('got'), mid: Id, bytes: Offset }),
  /** The receiver will not take this film (already has it, no space, the person said no): shown on the sender. */
  z.object({ t: z.literal('skip'), mid: Id, why: z.string().max(300) }),
  z.object({ t: z.literal('done'), mid: Id }),
  /** Every film the receiver wanted is done. */
  z.object({ t: z.literal('bye') }),
]);
export type ReceiverMessage = z.infer<typeof ReceiverMessage>;
