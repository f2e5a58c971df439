import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';
import {
  getsHevcSmall,
  RENDITION_KINDS,
  RENDITION_TARGETS,
  type RenditionKind,
  SMALL_HEVC_DECODING,
} from './renditions.ts';

/**
 * The device check (issue 20/22 item 4, decision 0253): a page any operator opens on a phone, which asks the phone's
 * decoder about each rendition's codec strings, plays a few seconds of each, and may send what it found here, so the
 * console can say which share of checked phones get the HEVC Small.
 */

/** What a phone is asked about one rendition: its codec strings (RFC 6381), largest frame, rate and bitrate. */
export interface RenditionDecoding {
  videoCodec: string;
  audioCodec: string;
  width: number;
  height: number;
  framerate: number;
  /** The rendition's cap on its total bitrate: the most the decoder must keep up with. */
  bitrate: number;
}

/**
 * Each rendition as the ladder encodes it: H.264 Main at level 3.0 (Small, 360p) or 3.1 (Standard 540p, HD 720p,
 * `avc1.4D401E`/`avc1.4D401F`: profile 0x4D = Main, constraints 0x40, level ×10) with AAC-LC, and the HEVC Small.
 */
export const RENDITION_DECODING: Record<RenditionKind, RenditionDecoding> = {
  small: h264('avc1.4D401E', 640, 'small'),
  'small-hevc': {
    videoCodec: SMALL_HEVC_DECODING.videoCodec,
    audioCodec: SMALL_HEVC_DECODING.audioCodec,
    width: SMALL_HEVC_DECODING.width,
    height: SMALL_HEVC_DECODING.height,
    framerate: SMALL_HEVC_DECODING.framerate,
    bitrate: RENDITION_TARGETS['small-hevc'].maxTotalBitsPerSecond,
  },
  standard: h264('avc1.4D401F', 960, 'standard'),
  hd: h264('avc1.4D401F', 1280, 'hd'),
};

function h264(videoCodec: string, width: number, kind: RenditionKind): RenditionDecoding {
  const { height, maxTotalBitsPerSecond } = RENDITION_TARGETS[kind];
  return { videoCodec, audioCodec: 'mp4a.40.2', width, height, framerate: 30, bitrate: maxTotalBitsPerSecond };
}

/** The MIME types `canPlayType` and `decodingInfo` are asked about (MP4, as every rendition is). */
export const videoContentType = (d: RenditionDecoding) => `video/mp4; codecs="${d.videoCodec}"`;
export const audioContentType = (d: RenditionDecoding) => `audio/mp4; codecs="${d.audioCodec}"`;

/** `canPlayType`'s three answers ('' is "no"). */
export const CanPlayAnswer = z.enum(['', 'maybe', 'probably']);
export type CanPlayAnswer = z.infer<typeof CanPlayAnswer>;

/** Whether the sample clip of a rendition played through, would not play, or was not tried. */
export const PLAY_OUTCOMES = ['played', 'failed', 'not-tried'] as const;
export const PlayOutcome = z.enum(PLAY_OUTCOMES);
export type PlayOutcome = z.infer<typeof PlayOutcome>;

/** `decodingInfo`'s answer; null when the browser has no Media Capabilities or the question failed. */
export const DecodingAnswer = z.object({
  supported: z.boolean(),
  smooth: z.boolean(),
  powerEfficient: z.boolean(),
});
export type DecodingAnswer = z.infer<typeof DecodingAnswer>;

export const RenditionAnswer = z.object({
  decoding: DecodingAnswer.nullable(),
  videoCanPlay: CanPlayAnswer,
  audioCanPlay: CanPlayAnswer,
  played: PlayOutcome,
});
export type RenditionAnswer = z.infer<typeof RenditionAnswer>;

/** One answer per rendition, nothing else: a fixed shape, so what is stored is never a blob a client chose. */
export const DeviceCheckAnswers = z.object({
  small: RenditionAnswer,
  'small-hevc': RenditionAnswer,
  standard: RenditionAnswer,
  hd: RenditionAnswer,
} satisfies Record<RenditionKind, typeof RenditionAnswer>);
export type DeviceCheckAnswers = z.infer<typeof DeviceCheckAnswers>;

/**
 * What `navigator.userAgentData` says beside the User-Agent header, which Chrome reduces to `Android 10; K`: its
 * platform, and the high-entropy model and platform version. Each null when the browser does not say.
 */
export const PhoneHints = z.object({
  platform: z.string().trim().max(40).nullable(),
  model: z.string().trim().max(80).nullable(),
  platformVersion: z.string().trim().max(40).nullable(),
});
export type PhoneHints = z.infer<typeof PhoneHints>;

/** The User-Agent header is the request's own (capped at this length), never a field of the body. */
export const DEVICE_CHECK_USER_AGENT_MAX = 512;

export const DeviceCheckRequest = z.object({
  hints: PhoneHints.nullable(),
  answers: DeviceCheckAnswers,
});
export type DeviceCheckRequest = z.input<typeof DeviceCheckRequest>;

export const DeviceCheckReceipt = z.object({ id: Id, message: z.string() });
export type DeviceCheckReceipt = z.infer<typeof DeviceCheckReceipt>;

/** Whether a rendition plays here: the decoder's answer where the browser gives one, else `canPlayType` for both. */
export function playsHere(answer: RenditionAnswer): boolean {
  if (answer.decoding) return answer.decoding.supported && answer.audioCanPlay !== '';
  return answer.videoCanPlay !== '' && answer.audioCanPlay !== '';
}

/**
 * Whether Filamu gives this phone the HEVC Small (decision 0252's rule): its decoder plays the file in hardware
 * (`powerEfficient`, which Chrome answers only where it sees a hardware decoder) and it plays Opus. Anything less, and
 * a browser with no Media Capabilities, gets the H.264 Small.
 */
export function phoneGetsHevcSmall(answers: DeviceCheckAnswers): boolean {
  const hevc = answers['small-hevc'];
  return getsHevcSmall(hevc.decoding, hevc.audioCanPlay);
}

export const DEVICE_CHECK_PAGE_SIZE_MAX = 100;

export const DeviceCheckListQuery = z.object({
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(DEVICE_CHECK_PAGE_SIZE_MAX).default(25),
});
export type DeviceCheckListQuery = z.input<typeof DeviceCheckListQuery>;

export const DeviceCheck = z.object({
  id: Id,
  /** The phone's model, Android and Chrome versions as read from its User-Agent and hints (null: not said). */
  model: z.string().nullable(),
  androidVersion: z.string().nullable(),
  chromeVersion: z.string().nullable(),
  userAgent: z.string().nullable(),
  hevcSmall: z.boolean(),
  h264Small: z.boolean(),
  /** Sent by a signed-in person (the operator's own account, or a subscriber's). */
  signedIn: z.boolean(),
  answers: DeviceCheckAnswers,
  createdAt: IsoDateTime,
});
export type DeviceCheck = z.infer<typeof DeviceCheck>;

export const DeviceCheckList = z.object({
  checks: z.array(DeviceCheck),
  /** Checks on all pages. */
  total: z.number().int(),
  /** Of those, the checks whose phone gets the HEVC Small. */
  hevcSmall: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DeviceCheckList = z.infer<typeof DeviceCheckList>;

/** The renditions in the order the page and the console show them: the ladder's order. */
export const DEVICE_CHECK_RENDITIONS = RENDITION_KINDS;
