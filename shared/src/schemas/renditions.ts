import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

/**
 * The sizes a movie is offered in. `small`, `small-hevc`, `standard` and `hd` are made on the server from the uploaded
 * file (the rendition ladder, never upscaled), in this order: H.264 Small first so a new upload is downloadable soonest,
 * then the HEVC Small most phones will fetch (issue 20/22); `original` is the uploaded file itself.
 */
export const RENDITION_KINDS = ['small', 'small-hevc', 'standard', 'hd'] as const;
export type RenditionKind = (typeof RENDITION_KINDS)[number];
/** Smallest first: a size "at most" another is one earlier in this list. */
export const DOWNLOAD_SIZES = ['small-hevc', 'small', 'standard', 'hd', 'original'] as const;
export const DownloadSize = z.enum(DOWNLOAD_SIZES, {
  message: 'size must be small-hevc, small, standard, hd or original.',
});
export type DownloadSize = z.infer<typeof DownloadSize>;

/**
 * What a subscriber reads: both Smalls are "Small" — a phone is offered only the one it plays best (issue 20/22);
 * `RENDITION_ADMIN_LABELS` tells them apart for the operator.
 */
export const DOWNLOAD_SIZE_LABELS: Record<DownloadSize, string> = {
  'small-hevc': 'Small',
  small: 'Small',
  standard: 'Standard',
  hd: 'HD',
  original: 'Original',
};

export const RENDITION_ADMIN_LABELS: Record<DownloadSize, string> = {
  'small-hevc': 'Small (HEVC)',
  small: 'Small (H.264)',
  standard: 'Standard',
  hd: 'HD',
  original: 'Original',
};

/**
 * The HEVC Small as a phone's decoder is asked about it (`navigator.mediaCapabilities.decodingInfo`): the RFC 6381
 * codec strings of the file the ladder makes (HEVC Main, Main tier, level 3; Opus audio) and its largest frame, rate
 * and bitrate. The transcode tests read the codec string back from each file's `hvcC` box, so this cannot drift
 * from what is served.
 */
export const SMALL_HEVC_DECODING = {
  videoCodec: 'hvc1.1.6.L90.90',
  audioCodec: 'opus',
  width: 640,
  height: 360,
  framerate: 30,
} as const;

/**
 * Whether a phone gets the HEVC Small (decision 0252), from its decoder's answer about `SMALL_HEVC_DECODING` (null: no
 * Media Capabilities, or no answer) and `canPlayType` for Opus in MP4: only a hardware decoder (`powerEfficient`, which
 * Chrome answers only where it sees one) and Opus sound; anything less gets the H.264 Small every phone plays. The
 * download dialog and the device check page both ask this.
 */
export function getsHevcSmall(
  decoding: { supported: boolean; powerEfficient: boolean } | null,
  opusCanPlay: string,
): boolean {
  return !!decoding?.supported && decoding.powerEfficient && opusCanPlay !== '';
}

/**
 * Each rendition's target: the frame height it is scaled down to and the cap on its total bitrate (video + audio),
 * which bounds its size by the movie's duration (Small: ≤ 0.47 Mbit/s, about 320 MB for 90 minutes).
 */
export const RENDITION_TARGETS: Record<RenditionKind, { height: number; maxTotalBitsPerSecond: number }> = {
  small: { height: 360, maxTotalBitsPerSecond: 470_000 },
  /** ≤ 200 MB for 90 minutes (issue 20/22): 200 × 8 × 10⁶ / 5,400 s ≈ 296 kbit/s. */
  'small-hevc': { height: 360, maxTotalBitsPerSecond: 296_000 },
  standard: { height: 540, maxTotalBitsPerSecond: 1_100_000 },
  hd: { height: 720, maxTotalBitsPerSecond: 2_600_000 },
};

/**
 * queued → encoding → ready | failed; `skipped` when the source is not taller than the rendition below it would need
 * (no upscaling: a 480p upload gets Small only), `cancelled` when the movie was deleted.
 */
export const RENDITION_STATES = ['queued', 'encoding', 'ready', 'failed', 'skipped', 'cancelled'] as const;
export const RenditionState = z.enum(RENDITION_STATES);
export type RenditionState = z.infer<typeof RenditionState>;

/** A size a subscriber can download now (ready renditions and the original), smallest first. */
export const MovieSize = z.object({
  size: DownloadSize,
  bytes: z.number().int(),
  /** Frame height in pixels; null for an original that was never probed. */
  height: z.number().int().nullable(),
});
export type MovieSize = z.infer<typeof MovieSize>;

/** One rendition as the admin console shows it. */
export const AdminRendition = z.object({
  kind: z.enum(RENDITION_KINDS),
  state: RenditionState,
  /** 0–1 while encoding. */
  progress: z.number(),
  /** Seconds left while encoding, from ffmpeg's speed; null when unknown. */
  etaSeconds: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Failed: ffmpeg's reason, in its words (last lines of its log). */
  error: z.string().nullable(),
  updatedAt: IsoDateTime,
});
export type AdminRendition = z.infer<typeof AdminRendition>;

/** The operator's data price (console) that every size's cost is estimated from; UGX per 1 GB (10⁹ bytes). */
export const DEFAULT_DATA_PRICE_PER_GB_UGX = 6_000;
export const DataPriceSetting = z.object({
  dataPricePerGbUgx: z
    .number({ message: 'Enter the price of 1 GB of data in UGX.' })
    .int('Enter a whole number of UGX.')
    .min(100, 'The price of 1 GB must be at least UGX 100.')
    .max(100_000, 'The price of 1 GB must be at most UGX 100,000.'),
});
export type DataPriceSetting = z.infer<typeof DataPriceSetting>;

/**
 * What downloading `bytes` costs in data at `pricePerGbUgx` (per 10⁹ bytes, as bundles are sold), rounded to the
 * nearest UGX 100 and never below UGX 100 (`DATA_COST_FLOOR_UGX`, which the PWA words as "under UGX 100"): an estimate,
 * shown with "≈".
 */
export function dataCostUgx(bytes: number, pricePerGbUgx: number): number {
  if (!Number.isFinite(bytes) || bytes <= 0) return 0;
  const exact = (bytes / 1e9) * pricePerGbUgx;
  return Math.max(DATA_COST_FLOOR_UGX, Math.round(exact / 100) * 100);
}

export const DATA_COST_FLOOR_UGX = 100;

/** `/admin/movies/:id/renditions/:kind/…` */
export const RenditionParams = z.object({
  id: Id,
  kind: z.enum(RENDITION_KINDS, { message: 'kind must be small, small-hevc, standard or hd.' }),
});
