import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

/**
 * The sizes a movie is offered in. `small`, `standard` and `hd` are made on the server from the uploaded file (the
 * rendition ladder, never upscaled); `original` is the uploaded file itself.
 */
export const RENDITION_KINDS = ['small', 'standard', 'hd'] as const;
export type RenditionKind = (typeof RENDITION_KINDS)[number];
export const DOWNLOAD_SIZES = ['small', 'standard', 'hd', 'original'] as const;
export const DownloadSize = z.enum(DOWNLOAD_SIZES, { message: 'size must be small, standard, hd or original.' });
export type DownloadSize = z.infer<typeof DownloadSize>;

export const DOWNLOAD_SIZE_LABELS: Record<DownloadSize, string> = {
  small: 'Small',
  standard: 'Standard',
  hd: 'HD',
  original: 'Original',
};

/**
 * Each rendition's target: the frame height it is scaled down to and the cap on its total bitrate (video + audio),
 * which bounds its size by the movie's duration (Small: ≤ 0.47 Mbit/s, about 320 MB for 90 minutes).
 */
export const RENDITION_TARGETS: Record<RenditionKind, { height: number; maxTotalBitsPerSecond: number }> = {
  small: { height: 360, maxTotalBitsPerSecond: 470_000 },
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
  kind: z.enum(RENDITION_KINDS, { message: 'kind must be small, standard or hd.' }),
});
