import {
  FILM_CHUNK_BYTES,
  FILM_FRAME_BYTES,
  FILM_WIRE_VERSION,
  MANIFEST_PART_CHARS,
  type OfferedFilm,
  ReceiverMessage,
  type SenderMessage,
} from '@filamu/shared';
import type { LocalDownload } from '../downloads/engine/record.ts';
import { heldFilm } from '../downloads/travel.ts';
import { FilmChannel } from './film-channel.ts';

/**
 * The sending phone's side of a transfer (decision 0250): it offers films and answers what the receiving phone asks —
 * a film's manifest, then its bytes from where the receiver holds them. It never decides what the receiver keeps.
 * It reads the film from disk a chunk at a time and sends no more than a few MiB ahead of what the receiver has
 * checked and kept, so neither phone holds more than that in memory however long the film.
 */

/** A film ready to travel: finished on this phone, with its signed manifest. */
export interface FilmToSend {
  record: Pick<LocalDownload, 'key' | 'movieId' | 'title' | 'category' | 'size'>;
  manifest: string;
}

export interface SendHooks {
  /** Bytes of the film the receiver has checked and kept. */
  progress: (movieId: string, bytes: number) => void;
  skipped: (movieId: string, why: string) => void;
  done: (movieId: string) => void;
  /** The receiver has every film it wanted. */
  finished: () => void;
  closed: () => void;
  invalid: () => void;
}

/** Bytes sent beyond what the receiver has acknowledged, at most. */
const AHEAD_BYTES = 8 * FILM_CHUNK_BYTES;

export function sendFilms(dataChannel: RTCDataChannel, films: FilmToSend[], hooks: SendHooks): { stop: () => void } {
  const byId = new Map(films.map((film) => [film.record.movieId, film]));
  let currentRun = 0;
  const acknowledged = new Map<string, number>();
  const ackWaiters = new Set<() => void>();
  const wake = () => {
    for (const resolve of ackWaiters) resolve();
    ackWaiters.clear();
  };

  const channel = new FilmChannel<ReceiverMessage, SenderMessage>(dataChannel, ReceiverMessage, {
    message: (message) => {
      switch (message.t) {
        case 'manifest?':
          return sendManifest(message.mid);
        case 'send':
          currentRun = message.run;
          wake();
          acknowledged.set(message.mid, message.from);
          void stream(message.mid, message.from, message.run);
          return;
        case 'got':
          acknowledged.set(message.mid, message.bytes);
          wake();
          return hooks.progress(message.mid, message.bytes);
        case 'skip':
          return hooks.skipped(message.mid, message.why);
        case 'done':
          return hooks.done(message.mid);
        case 'bye':
          return hooks.finished();
      }
    },
    frame: () => hooks.invalid(),
    invalid: () => {
      hooks.invalid();
      channel.close();
    },
    closed: () => {
      wake();
      hooks.closed();
    },
  });

  const hello = () => {
    const offered: OfferedFilm[] = films.map(({ record }) => ({
      mid: record.movieId,
      title: record.title,
      category: record.category,
      bytes: record.size,
    }));
    channel.send({ t: 'hello', v: FILM_WIRE_VERSION, films: offered });
  };
  if (dataChannel.readyState === 'open') hello();
  else dataChannel.addEventListener('open', hello, { once: true });

  function sendManifest(movieId: string) {
    const film = byId.get(movieId);
    if (!film) return channel.send({ t: 'gone', mid: movieId });
    const of = Math.ceil(film.manifest.length / MANIFEST_PART_CHARS);
    for (let part = 0; part < of; part++) {
      const text = film.manifest.slice(part * MANIFEST_PART_CHARS, (part + 1) * MANIFEST_PART_CHARS);
      channel.send({ t: 'manifest', mid: movieId, part, of, text });
    }
  }

  async function stream(movieId: string, from: number, run: number) {
    const film = byId.get(movieId);
    if (!film) return channel.send({ t: 'gone', mid: movieId });
    let file: File;
    try {
      file = await heldFilm(film.record);
    } catch {
      return channel.send({ t: 'gone', mid: movieId });
    }
    for (let start = from; start < file.size && run === currentRun; start += FILM_CHUNK_BYTES) {
      while (channel.open && run === currentRun && start - (acknowledged.get(movieId) ?? 0) >= AHEAD_BYTES) {
        await new Promise<void>((resolve) => ackWaiters.add(resolve));
      }
      if (!channel.open || run !== currentRun) return;
      const chunk = new Uint8Array(await file.slice(start, start + FILM_CHUNK_BYTES).arrayBuffer());
      for (let at = 0; at < chunk.length; at += FILM_FRAME_BYTES) {
        if (run !== currentRun || !(await channel.sendFrame(run, chunk.subarray(at, at + FILM_FRAME_BYTES)))) return;
      }
    }
  }

  return { stop: () => channel.close() };
}
