import { FILM_CHUNK_BYTES, type OfferedFilm, type ReceiverMessage, SenderMessage } from '@filamu/shared';
import {
  admitReceivedFilm,
  claimsOfManifest,
  finishReceivedFilm,
  type ReceivedOutcome,
  ReceivingFilm,
  receivedSoFar,
} from '../downloads/travel.ts';
import { type FilmChannelEvents, FilmChannel, type FilmFrame } from './film-channel.ts';
import { p2pT } from './messages.ts';

/**
 * The receiving phone's side of a transfer (decision 0250). It leads: for each film offered, in order, it asks for the
 * manifest, admits the film under the same rules as a film file (signed by Filamu, not already here, Kinayuganda
 * first, space), then asks for the bytes from where it already holds them — a film broken off by a drop goes on from
 * its last kept chunk. Every 1 MiB chunk is checked against the manifest before it is written; one that fails is
 * asked for again. A whole film becomes a download of this phone and asks for its licence.
 */

export type FilmOutcome = ReceivedOutcome | { kind: 'skipped' };

export interface ReceiveHooks {
  offered: (films: OfferedFilm[]) => void;
  /** Bytes of a film checked and kept on this phone so far (counting any kept from an earlier transfer). */
  progress: (movieId: string, bytes: number) => void;
  outcome: (movieId: string, outcome: FilmOutcome) => void;
  keepLockedEnglish: (stillToGo: number) => Promise<boolean>;
  finished: () => void;
  closed: () => void;
  invalid: () => void;
}

// Words read when they are said, in the language active then.
const notFilamu = () => p2pT('phone-to-phone.error.notFilamu');
const gone = () => p2pT('phone-to-phone.error.gone');
const notSaved = () => p2pT('phone-to-phone.error.notSaved');

/** A chunk that fails its hash this many times in a row is the sender's copy that is damaged, not the link. */
const CHUNK_TRIES = 3;

/** Why a film stopped: the link went (the transfer can go on later) or the other phone broke the protocol. */
class Interrupted extends Error {}

/** The sender's copy of a film is damaged: the same chunk failed its hash every time it came. */
class Damaged extends Error {
  constructor(part: number, of: number) {
    super(p2pT('phone-to-phone.error.damaged', { part, of }));
  }
}

/** The other phone no longer has the film. */
class Gone extends Error {
  constructor() {
    super(gone());
  }
}

export function receiveFilms(
  dataChannel: RTCDataChannel,
  ownerId: string,
  hooks: ReceiveHooks,
): { stop: () => void; keep: () => Promise<void> } {
  let run = 0;
  let film: ReceivingFilm | null = null;
  /** The chunk being filled from frames; checked and written when full. */
  let chunk = new Uint8Array(FILM_CHUNK_BYTES);
  let filled = 0;
  let frames: Promise<void> = Promise.resolve();
  let manifest: { mid: string; parts: string[]; resolve: (text: string | null) => void } | null = null;
  let filmDone: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let ended = false;
  let failures = 0;

  const interrupt = (error: Error) => {
    manifest?.resolve(null);
    filmDone?.reject(error);
  };

  const events: FilmChannelEvents<SenderMessage> = {
    message: (message) => {
      if (message.t === 'hello') return void walk(message.films);
      if (message.t === 'gone') return interruptFilm(message.mid);
      if (!manifest || manifest.mid !== message.mid || message.part !== manifest.parts.length) return;
      manifest.parts.push(message.text);
      if (manifest.parts.length === message.of) manifest.resolve(manifest.parts.join(''));
    },
    frame: (frame) => {
      frames = frames.then(() => take(frame)).catch((error: unknown) => filmDone?.reject(error as Error));
    },
    invalid: () => {
      ended = true;
      interrupt(new Interrupted('invalid'));
      hooks.invalid();
      channel.close();
    },
    closed: () => {
      if (ended) return;
      ended = true;
      interrupt(new Interrupted('closed'));
      hooks.closed();
    },
  };
  const channel = new FilmChannel<SenderMessage, ReceiverMessage>(dataChannel, SenderMessage, events);

  function interruptFilm(movieId: string) {
    if (manifest?.mid === movieId) manifest.resolve(null);
    if (film?.claims.mid === movieId) filmDone?.reject(new Gone());
  }

  function askFrom(from: number) {
    run += 1;
    chunk = new Uint8Array(Math.min(FILM_CHUNK_BYTES, (film?.claims.bytes ?? 0) - from));
    filled = 0;
    channel.send({ t: 'send', mid: film!.claims.mid, from, run });
  }

  async function take({ run: frameRun, bytes }: FilmFrame) {
    if (!film || frameRun !== run || filmDone === null) return;
    if (filled + bytes.length > chunk.length) {
      // More than the chunk holds: the frames went wrong, so this chunk is asked for again.
      return askFrom(film.written);
    }
    chunk.set(bytes, filled);
    filled += bytes.length;
    if (filled < chunk.length) return;
    if (!(await film.write(chunk))) {
      failures += 1;
      if (failures < CHUNK_TRIES) return askFrom(film.written);
      const of = Math.ceil(film.claims.bytes / FILM_CHUNK_BYTES);
      return filmDone.reject(new Damaged(film.written / FILM_CHUNK_BYTES + 1, of));
    }
    failures = 0;
    hooks.progress(film.claims.mid, film.written);
    channel.send({ t: 'got', mid: film.claims.mid, bytes: film.written });
    if (film.complete) return filmDone.resolve();
    chunk = new Uint8Array(Math.min(FILM_CHUNK_BYTES, film.claims.bytes - film.written));
    filled = 0;
  }

  async function manifestOf(movieId: string): Promise<string | null> {
    const text = new Promise<string | null>((resolve) => (manifest = { mid: movieId, parts: [], resolve }));
    channel.send({ t: 'manifest?', mid: movieId });
    const got = await text;
    manifest = null;
    return got;
  }

  async function receiveOne(offered: OfferedFilm): Promise<FilmOutcome> {
    const text = await manifestOf(offered.mid);
    if (ended) throw new Interrupted('closed');
    if (text === null) return { kind: 'refused', message: gone() };
    const claims = claimsOfManifest(text);
    if (!claims || claims.mid !== offered.mid || claims.bytes !== offered.bytes) {
      return { kind: 'refused', message: notFilamu() };
    }
    const alreadyHeld = receivedSoFar(ownerId, claims);
    const refusal = await admitReceivedFilm(claims, text, ownerId, {
      keepLockedEnglish: hooks.keepLockedEnglish,
      alreadyHeld,
    });
    if (refusal) return refusal.kind === 'cancelled' ? { kind: 'skipped' } : refusal;

    film = await ReceivingFilm.open(ownerId, claims);
    failures = 0;
    hooks.progress(claims.mid, film.written);
    try {
      if (!film.complete) {
        await new Promise<void>((resolve, reject) => {
          filmDone = { resolve, reject };
          askFrom(film!.written);
        });
      }
    } finally {
      filmDone = null;
      await film.keep();
      film = null;
    }
    return finishReceivedFilm(ownerId, claims, text);
  }

  async function walk(films: OfferedFilm[]) {
    hooks.offered(films);
    for (const offered of films) {
      let outcome: FilmOutcome;
      try {
        outcome = await receiveOne(offered);
      } catch (error) {
        if (error instanceof Interrupted) return;
        const told = error instanceof Damaged || error instanceof Gone;
        outcome = { kind: 'refused', message: told ? error.message : notSaved() };
      }
      hooks.outcome(offered.mid, outcome);
      if (outcome.kind === 'ready' || outcome.kind === 'waiting') channel.send({ t: 'done', mid: offered.mid });
      else
        channel.send({
          t: 'skip',
          mid: offered.mid,
          why: outcome.kind === 'refused' ? outcome.message : p2pT('phone-to-phone.skip.notNow'),
        });
    }
    channel.send({ t: 'bye' });
    hooks.finished();
  }

  return {
    stop: () => channel.close(),
    /** Commits what has arrived to disk (the page is being hidden: Android may end it without another word). */
    keep: async () => {
      await frames;
      await film?.keep();
    },
  };
}
