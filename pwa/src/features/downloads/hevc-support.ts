import { type DownloadSize, getsHevcSmall, RENDITION_TARGETS, SMALL_HEVC_DECODING } from '@filamu/shared';
import type { SmallKind } from './sizes.ts';

/**
 * Which Small this phone plays (issue 20/22, decision 0252): the HEVC Small (about a third fewer bytes) only where the
 * phone decodes HEVC in hardware and plays Opus; everywhere else the H.264 Small, which every phone plays. Asked from
 * the page, never the service worker: Chrome answers `powerEfficient` only where it can see the hardware decoder.
 */

/** What `navigator.mediaCapabilities.decodingInfo` said about the HEVC Small. */
export type DecodingAnswer =
  | { asked: 'no-api' }
  /** It threw, or gave no answer within `ASK_TIMEOUT_MS`. */
  | { asked: 'failed' }
  | { asked: 'answered'; supported: boolean; smooth: boolean; powerEfficient: boolean };

/** What `canPlayType('audio/mp4; codecs="opus"')` said; anything else a browser says counts as ''. */
export type OpusAnswer = '' | 'maybe' | 'probably';

export interface PhoneAnswers {
  decoding: DecodingAnswer;
  opus: OpusAnswer;
}

/**
 * The rule. `powerEfficient` is the hardware decoder: a software HEVC decoder on a cheap phone drains the battery and
 * drops frames, so `supported` alone is not enough. `smooth` is not asked for: Chrome derives it from the same
 * decoder, and a hardware one plays 360p smoothly. Opus must play too — the HEVC Small has no AAC sound.
 */
export function smallForThisPhone({ decoding, opus }: PhoneAnswers): SmallKind {
  return getsHevcSmall(decoding.asked === 'answered' ? decoding : null, opus) ? 'small-hevc' : 'small';
}

/**
 * Whether a film of `size` (one arriving from another phone) plays on a phone whose decoder answered `capable`. Only
 * the HEVC Small can fail to: every other size is H.264 with AAC, which every phone plays.
 */
export function playsHere(size: DownloadSize, capable: SmallKind): boolean {
  return size !== 'small-hevc' || capable === 'small-hevc';
}

/** Long enough for any phone (the answer takes milliseconds); short enough that a hung browser never holds a download. */
const ASK_TIMEOUT_MS = 1000;

const HEVC_SMALL_CONFIGURATION: MediaDecodingConfiguration = {
  type: 'file',
  video: {
    contentType: `video/mp4; codecs="${SMALL_HEVC_DECODING.videoCodec}"`,
    width: SMALL_HEVC_DECODING.width,
    height: SMALL_HEVC_DECODING.height,
    bitrate: RENDITION_TARGETS['small-hevc'].maxTotalBitsPerSecond,
    framerate: SMALL_HEVC_DECODING.framerate,
  },
  audio: { contentType: `audio/mp4; codecs="${SMALL_HEVC_DECODING.audioCodec}"` },
};

async function askDecoder(): Promise<DecodingAnswer> {
  const capabilities = typeof navigator === 'undefined' ? undefined : navigator.mediaCapabilities;
  if (typeof capabilities?.decodingInfo !== 'function') return { asked: 'no-api' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const info = await Promise.race([
      capabilities.decodingInfo(HEVC_SMALL_CONFIGURATION),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ASK_TIMEOUT_MS);
      }),
    ]);
    if (!info) return { asked: 'failed' };
    return {
      asked: 'answered',
      supported: info.supported === true,
      smooth: info.smooth === true,
      powerEfficient: info.powerEfficient === true,
    };
  } catch {
    return { asked: 'failed' };
  } finally {
    clearTimeout(timer);
  }
}

function askOpus(): OpusAnswer {
  try {
    const answer = document.createElement('video').canPlayType(`audio/mp4; codecs="${SMALL_HEVC_DECODING.audioCodec}"`);
    return answer === 'maybe' || answer === 'probably' ? answer : '';
  } catch {
    return '';
  }
}

let asking: Promise<SmallKind> | null = null;
let answered: SmallKind | null = null;
const listeners = new Set<() => void>();

/** The Small this phone plays, asked once per page life (the answer does not change while the page lives). */
export function capableSmall(): Promise<SmallKind> {
  asking ??= (async () => {
    const decoding = await askDecoder();
    const small = smallForThisPhone({ decoding, opus: askOpus() });
    answered = small;
    listeners.forEach((listener) => listener());
    return small;
  })();
  return asking;
}

/** The answer once known, for React (`useSyncExternalStore`); null while it is asked. */
export function knownCapableSmall(): SmallKind | null {
  return answered;
}

export function onCapableSmallKnown(listener: () => void): () => void {
  listeners.add(listener);
  void capableSmall();
  return () => listeners.delete(listener);
}
