import { z } from 'zod';
import { NightWindows } from '../night-windows.ts';
import { Id, IsoDateTime } from './common.ts';
import { DownloadSize } from './renditions.ts';

/**
 * The night bundle (issue 21/22): the operator's price of 1 GB at night and the hours it is sold, in Kampala time. One
 * price for every network (decision 0255): MTN's and Airtel's night bundles cost the same today, and a phone's network
 * cannot be told from its number once it is ported.
 */
export const DEFAULT_NIGHT_PRICE_PER_GB_UGX = 2_000;

export const NightBundleSetting = z.object({
  nightPricePerGbUgx: z
    .number({ message: 'Enter the price of 1 GB of night data in UGX.' })
    .int('Enter a whole number of UGX.')
    .min(100, 'The price of 1 GB at night must be at least UGX 100.')
    .max(100_000, 'The price of 1 GB at night must be at most UGX 100,000.'),
  windows: NightWindows,
});
export type NightBundleSetting = z.infer<typeof NightBundleSetting>;

/**
 * What the console reads back: the setting saved last and, while a night window it would change is under way, when it
 * takes effect (that window's end); null when it is in force.
 */
export const NightBundleAdminView = NightBundleSetting.extend({ takesEffectAt: IsoDateTime.nullable() });
export type NightBundleAdminView = z.infer<typeof NightBundleAdminView>;

/** One occurrence of a night window, as instants. */
export const NightSpanWire = z.object({ opensAt: IsoDateTime, closesAt: IsoDateTime });
export type NightSpanWire = z.infer<typeof NightSpanWire>;

/**
 * What a phone reads: both prices, the windows, and — by the server's clock, so a phone whose clock is wrong still
 * follows Kampala's night — the window open now (null by day) and the window open now or next to open.
 */
export const NightBundle = z.object({
  dayPricePerGbUgx: z.number().int(),
  nightPricePerGbUgx: z.number().int(),
  windows: NightWindows,
  openNow: NightSpanWire.nullable(),
  next: NightSpanWire,
});
export type NightBundle = z.infer<typeof NightBundle>;

export const TONIGHT_QUEUE_MAX = 20;

export const TonightQueueItem = z.object({ movieId: Id, size: DownloadSize });
export type TonightQueueItem = z.infer<typeof TonightQueueItem>;

/**
 * The films a person queued for tonight. The phone keeps the real queue (its downloads engine); the server's copy only
 * decides who gets the push when a window opens.
 */
export const TonightQueue = z.object({
  items: z.array(TonightQueueItem).max(TONIGHT_QUEUE_MAX, `At most ${TONIGHT_QUEUE_MAX} films can wait for tonight.`),
});
export type TonightQueue = z.infer<typeof TonightQueue>;

/** What the push at a window's start says, and the page its tap opens. */
export const NIGHT_WINDOW_PUSH_URL = '/downloads/tonight?start=1';
