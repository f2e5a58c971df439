import type { OfferedFilm } from '@filamu/shared';
import { create } from 'zustand';
import { currentOwnerId } from '../../lib/owner.ts';
import type { ReceivedOutcome } from '../downloads/travel.ts';
import { type Description, answerConnection, offerConnection, watchLink } from './peer.ts';
import { receiveFilms } from './receive-films.ts';
import { type FilmToSend, sendFilms } from './send-films.ts';
import { openBackCamera, stopCamera } from './signalling/scan-qr.ts';
import { p2pT } from './messages.ts';
import { holdScreenOn } from './wake-lock.ts';

/**
 * The one state machine of a phone-to-phone transfer (decision 0250), on either phone. It lives outside any screen,
 * so the person can look elsewhere in the app while films move; only leaving the app (or Android ending the page)
 * stops it, and then a new pair of codes goes on from the last chunk the receiver kept.
 *
 *   sender:   idle ─▶ preparing ─▶ show-offer ─(answer read)─▶ connecting ─▶ moving ─▶ finished
 *   receiver: idle ─▶ scan-offer ─(offer read)─▶ preparing ─▶ show-answer ─▶ moving ⇄ asking ─▶ finished
 *   either, once connected: ─▶ dropped (the link went; films kept so far stay) · failed (could not connect)
 */

export type TransferPhase =
  | { at: 'idle' }
  | { at: 'preparing' }
  /** The sender shows its offer; the person then scans the receiver's answer. */
  | { at: 'show-offer'; offer: Description }
  | { at: 'scan-offer' }
  /** The receiver shows its answer and waits for the sender to read it. */
  | { at: 'show-answer'; answer: Description }
  | { at: 'connecting' }
  | { at: 'moving' }
  /** An English film while the Kinayuganda rule locks English: the receiver is asked before it is taken. */
  | { at: 'asking'; stillToGo: number }
  | { at: 'finished' }
  | { at: 'dropped'; message: string }
  | { at: 'failed'; message: string };

export type FilmState = 'waiting' | 'moving' | 'done' | 'skipped' | 'refused';

export interface FilmRow {
  mid: string;
  title: string;
  bytes: number;
  /** Checked and kept on the receiving phone. */
  arrived: number;
  state: FilmState;
  /** On the receiving phone: what became of it. On the sending phone: why the receiver did not take it. */
  outcome?: ReceivedOutcome;
  note?: string;
}

interface TransferState {
  role: 'send' | 'receive' | null;
  phase: TransferPhase;
  films: FilmRow[];
  /** Bytes per second over the last few seconds, or null before there is enough to say. */
  speed: number | null;
  /** Whether the screen is being kept on (false when the phone refused: the person is told to keep it awake). */
  screenHeld: boolean;
}

const initial: TransferState = { role: null, phase: { at: 'idle' }, films: [], speed: null, screenHeld: false };

export const useTransfer = create<TransferState>(() => initial);

// Words read when they are said, in the language active then.
const dropped = () => p2pT('phone-to-phone.error.dropped');
const notConnected = () => p2pT('phone-to-phone.error.notConnected');
const notFilamuPeer = () => p2pT('phone-to-phone.error.notFilamuPeer');
const SPEED_WINDOW_MS = 5_000;

/** What the current transfer holds open, to close when it ends. */
let active: { connection: RTCPeerConnection; stop: () => void; keep?: () => Promise<void> } | null = null;
let releaseScreen: (() => void) | null = null;
let englishAnswer: ((keep: boolean) => void) | null = null;
let pendingConnect: ((answer: Description) => Promise<RTCDataChannel>) | null = null;
let samples: { at: number; bytes: number }[] = [];

const set = useTransfer.setState;

function patchFilm(mid: string, patch: Partial<FilmRow>) {
  set(({ films }) => ({ films: films.map((film) => (film.mid === mid ? { ...film, ...patch } : film)) }));
}

function noteProgress(mid: string, arrived: number) {
  patchFilm(mid, { arrived, state: 'moving' });
  const now = performance.now();
  const total = useTransfer.getState().films.reduce((sum, film) => sum + film.arrived, 0);
  samples = [...samples.filter((sample) => now - sample.at <= SPEED_WINDOW_MS), { at: now, bytes: total }];
  const first = samples[0]!;
  const seconds = (now - first.at) / 1000;
  set({ speed: seconds >= 1 ? (total - first.bytes) / seconds : null });
}

function onVisibility() {
  // Android may end a hidden page without another word: what arrived is committed to disk first.
  if (document.visibilityState === 'hidden') void active?.keep?.();
}

let unwatchLink: (() => void) | null = null;

async function beginMoving(connection: RTCPeerConnection) {
  set({ phase: { at: 'moving' } });
  unwatchLink = watchLink(connection, () => endUnlessFinished({ at: 'dropped', message: dropped() }));
  samples = [];
  const hold = await holdScreenOn((held) => set({ screenHeld: held }));
  releaseScreen = hold;
  document.addEventListener('visibilitychange', onVisibility);
}

function end(phase: TransferPhase) {
  document.removeEventListener('visibilitychange', onVisibility);
  unwatchLink?.();
  unwatchLink = null;
  releaseScreen?.();
  releaseScreen = null;
  englishAnswer?.(false);
  englishAnswer = null;
  pendingConnect = null;
  const ending = active;
  active = null;
  // What arrived is committed before the connection goes: closing it may not tell the receiving side first.
  void ending?.keep?.();
  ending?.stop();
  ending?.connection.close();
  set({ phase, speed: null });
}

function endUnlessFinished(phase: TransferPhase) {
  if (useTransfer.getState().phase.at !== 'finished') end(phase);
}

/**
 * Chrome gives a page the phone's real addresses on the hotspot only once it may use the camera; before that it offers
 * at most a hidden (mDNS) name for the network with the default route — none at all on a hotspot with mobile data off
 * (decision 0250). The sender needs the camera next anyway, to read the receiver's code, so it asks now.
 */
async function allowCamera(): Promise<void> {
  const camera = await openBackCamera();
  if (camera.ok) stopCamera(camera.stream);
}

// ── The sending phone ───────────────────────────────────────────────────────────────────────────────────────────

/** The films of the last send: "Connect again" after a drop offers them again; the receiver takes what it lacks. */
let lastSent: FilmToSend[] = [];

export async function startSending(films: FilmToSend[]): Promise<void> {
  lastSent = films;
  end({ at: 'preparing' });
  set({
    role: 'send',
    films: films.map(({ record }) => ({
      mid: record.movieId,
      title: record.title,
      bytes: record.size,
      arrived: 0,
      state: 'waiting',
    })),
  });
  try {
    await allowCamera();
    const { connection, offer, connect } = await offerConnection();
    active = { connection, stop: () => undefined };
    pendingConnect = async (answer) => {
      const channel = await connect(answer);
      const sending = sendFilms(channel, films, {
        progress: noteProgress,
        skipped: (mid, why) => patchFilm(mid, { state: 'skipped', note: why }),
        done: (mid) => patchFilm(mid, { state: 'done' }),
        finished: () => end({ at: 'finished' }),
        closed: () => endUnlessFinished({ at: 'dropped', message: dropped() }),
        invalid: () => end({ at: 'failed', message: notFilamuPeer() }),
      });
      active = { connection, stop: sending.stop };
      return channel;
    };
    set({ phase: { at: 'show-offer', offer } });
  } catch {
    end({ at: 'failed', message: notConnected() });
  }
}

/** After a drop: the same films, with new codes. */
export function sendAgain(): Promise<void> {
  return startSending(lastSent);
}

/** The sender read the receiver's answer. */
export async function answerRead(answer: Description): Promise<void> {
  const connect = pendingConnect;
  if (!connect || answer.type !== 'answer') return;
  set({ phase: { at: 'connecting' } });
  try {
    await connect(answer);
    await beginMoving(active!.connection);
  } catch {
    end({ at: 'failed', message: notConnected() });
  }
}

// ── The receiving phone ─────────────────────────────────────────────────────────────────────────────────────────

export function startReceiving(): void {
  end({ at: 'scan-offer' });
  set({ role: 'receive', films: [] });
}

/** The receiver read the sender's offer. */
export async function offerRead(offer: Description): Promise<void> {
  const ownerId = currentOwnerId();
  if (!ownerId || offer.type !== 'offer') return;
  set({ phase: { at: 'preparing' } });
  try {
    const { connection, answer, channel } = await answerConnection(offer);
    active = { connection, stop: () => undefined };
    set({ phase: { at: 'show-answer', answer } });
    const open = await channel;
    const receiving = receiveFilms(open, ownerId, {
      offered: (films: OfferedFilm[]) =>
        set({
          films: films.map((film) => ({
            mid: film.mid,
            title: film.title,
            bytes: film.bytes,
            arrived: 0,
            state: 'waiting',
          })),
        }),
      progress: noteProgress,
      outcome: (mid, outcome) => {
        if (outcome.kind === 'skipped') return patchFilm(mid, { state: 'skipped' });
        patchFilm(mid, { state: outcome.kind === 'refused' ? 'refused' : 'done', outcome });
      },
      keepLockedEnglish: (stillToGo) =>
        new Promise<boolean>((resolve) => {
          set({ phase: { at: 'asking', stillToGo } });
          englishAnswer = (keep) => {
            englishAnswer = null;
            set({ phase: { at: 'moving' } });
            resolve(keep);
          };
        }),
      finished: () => end({ at: 'finished' }),
      closed: () => endUnlessFinished({ at: 'dropped', message: dropped() }),
      invalid: () => end({ at: 'failed', message: notFilamuPeer() }),
    });
    active = { connection, stop: receiving.stop, keep: receiving.keep };
    await beginMoving(connection);
  } catch {
    if (useTransfer.getState().phase.at !== 'idle') end({ at: 'failed', message: notConnected() });
  }
}

export function answerEnglish(keep: boolean): void {
  englishAnswer?.(keep);
}

/** The person stops (or leaves a finished transfer): what arrived stays on the receiving phone. */
export function stopTransfer(): void {
  end({ at: 'idle' });
  set(initial);
}
