import {
  DATA_COST_FLOOR_UGX,
  dataCostUgx,
  DOWNLOAD_SIZES,
  formatBytes,
  groupDigits,
  type DownloadSize,
  type MovieSize,
} from '@filamu/shared';
import { downloadsT } from './messages.ts';

/** The words of the size choice before a download and of what a finished one cost (issue 10/14 §4–§6). */

/** No-break space: "≈ UGX 1,700" never breaks across lines on a narrow phone. */
const NBSP = '\u00a0';

/** `UGX 1,700`. */
function formatUgx(amount: number): string {
  return `UGX${NBSP}${groupDigits(amount)}`;
}

/**
 * `≈ UGX 1,700 of data`: an estimate at the person's price per GB. Below the estimate's floor it says `under UGX 100`,
 * so a 90 KB file and a 7 MB file never read the same (decision 0208).
 */
export function costText(bytes: number, pricePerGbUgx: number): string {
  return downloadsT('downloads.cost.ofData', { estimate: ugxEstimate(bytes, pricePerGbUgx) });
}

/** `≈ UGX 1,700`, or `under UGX 100` below the estimate's floor: what `bytes` cost at a price per GB. */
export function ugxEstimate(bytes: number, pricePerGbUgx: number): string {
  if ((bytes / 1e9) * pricePerGbUgx < DATA_COST_FLOOR_UGX) {
    return downloadsT('downloads.cost.under', { amount: formatUgx(DATA_COST_FLOOR_UGX) });
  }
  return `≈${NBSP}${formatUgx(dataCostUgx(bytes, pricePerGbUgx))}`;
}

/** The smallest size on offer ("from 290 MB" on the card); null when the movie lists none. */
function smallestSize(sizes: readonly MovieSize[]): MovieSize | null {
  return sizes.reduce<MovieSize | null>((min, s) => (min === null || s.bytes < min.bytes ? s : min), null);
}

/** What the card and the detail page say about size: `from 290.0 MB` with a choice, else null (the size as today). */
export function fromSizeText(sizes: readonly MovieSize[]): string | null {
  if (sizes.length < 2) return null;
  const smallest = smallestSize(sizes);
  return smallest ? downloadsT('downloads.size.from', { size: formatBytes(smallest.bytes) }) : null;
}

/** The Small a phone is offered: the HEVC one (a third fewer bytes) or the H.264 one every phone plays. */
export type SmallKind = 'small' | 'small-hevc';

/**
 * "Small files" in Download settings (decision 0252): `this-phone` (the default) takes the smallest Small this phone
 * plays; `every-phone` always takes the H.264 Small, for someone who passes films on to phones that may lack HEVC.
 */
export type SmallFiles = 'this-phone' | 'every-phone';

/** The Small to offer: the one this phone plays best, unless the person keeps to files every phone plays. */
export function smallToOffer(capable: SmallKind, smallFiles: SmallFiles): SmallKind {
  return smallFiles === 'every-phone' ? 'small' : capable;
}

/**
 * The sizes this phone is offered: one Small, never both. The HEVC Small never reaches a phone that cannot play it;
 * a phone that can gets the H.264 Small only while the movie has no HEVC one (an old movie not yet re-encoded).
 */
export function sizesForThisPhone(sizes: readonly MovieSize[], small: SmallKind): MovieSize[] {
  if (small === 'small-hevc' && sizes.some((s) => s.size === 'small-hevc')) {
    return sizes.filter((s) => s.size !== 'small');
  }
  return sizes.filter((s) => s.size !== 'small-hevc');
}

/** Both Smalls are one "Small" to the person: kept as `small`, which means "this phone's Small" when pre-selecting. */
export function asRemembered(size: DownloadSize): DownloadSize {
  return size === 'small-hevc' ? 'small' : size;
}

/** The person's size settings on this phone: `ask` (the default) or a size to use without asking. */
export type SizePreference = 'ask' | DownloadSize;

/** The size on offer nearest to `wanted` without being bigger; the smallest when none is. */
function nearestAtMost(sizes: readonly MovieSize[], wanted: DownloadSize): DownloadSize {
  const offered = new Set(sizes.map((s) => s.size));
  if (offered.has(wanted)) return wanted;
  // A Small remembered is the Small on offer, whichever codec it is (the list holds one: `sizesForThisPhone`).
  if (wanted === 'small' || wanted === 'small-hevc') {
    const otherSmall = wanted === 'small' ? 'small-hevc' : 'small';
    if (offered.has(otherSmall)) return otherSmall;
  }
  const order = DOWNLOAD_SIZES.indexOf(wanted);
  const below = [...DOWNLOAD_SIZES.slice(0, order)].reverse().find((s) => offered.has(s));
  return below ?? smallestSize(sizes)!.size;
}

/**
 * The size to use (or pre-select) among those on offer (`sizesForThisPhone`): the person's default size when set; else the size they
 * picked last time on this phone; else the smallest. A size the movie lacks falls to the nearest smaller one. Every
 * connection a Ugandan has is paid data — Wi-Fi, a MiFi, a friend's hotspot — so nothing here assumes data is free
 * (decision 0208, replacing the Wi-Fi rule of 0138). Null when nothing is on offer.
 */
export function preselectSize(
  sizes: readonly MovieSize[],
  preference: SizePreference,
  lastPicked: DownloadSize | null,
): DownloadSize | null {
  if (sizes.length === 0) return null;
  if (preference !== 'ask') return nearestAtMost(sizes, preference);
  if (lastPicked) return nearestAtMost(sizes, lastPicked);
  return smallestSize(sizes)!.size;
}

/** The line under a size: its picture height, or what the Original is (it can be 720p too, at four times HD). */
export function sizeDetail(size: MovieSize): string | null {
  if (size.size === 'original') return downloadsT('downloads.size.original.detail');
  return size.height ? `${size.height}p` : null;
}

/** The share of a download fetched twice (drops, resumes): (fetched − total) / total, never below 0. */
export function refetchShare(fetchedBytes: number, totalBytes: number): number {
  if (!(totalBytes > 0) || !(fetchedBytes > totalBytes)) return 0;
  return (fetchedBytes - totalBytes) / totalBytes;
}

/**
 * What a finished download cost: `Used 296.0 MB of data (2 % re-fetched)`; the re-fetch part only when some
 * bytes came twice (and the total is known), and never `0 %` (under 1 % rounds up to `<1 %`).
 */
/**
 * What a film that came from another phone cost (issue 19/22 §5): `Received from a phone · 0 MB of data`, or what
 * this phone had fetched of it before the rest came from a phone.
 */
export function receivedDataText(fetchedBytes: number): string {
  return downloadsT('downloads.used.received', { data: fetchedBytes > 0 ? formatBytes(fetchedBytes) : '0 MB' });
}

export function usedDataText(fetchedBytes: number, totalBytes: number | null, nightBytes = 0): string {
  const used = Math.max(fetchedBytes, totalBytes ?? 0);
  const share = totalBytes === null ? 0 : refetchShare(fetchedBytes, totalBytes);
  const percent = share * 100;
  const refetched =
    share === 0
      ? ''
      : ` ${downloadsT('downloads.used.refetched', { percent: percent < 1 ? '<1' : Math.round(percent) })}`;
  // Issue 21/22 §5: the part that came on the night bundle, at its cheaper price.
  const night =
    nightBytes > 0
      ? ` · ${downloadsT('downloads.used.night', { bytes: formatBytes(Math.min(nightBytes, used)) })}`
      : '';
  return `${downloadsT('downloads.used.data', { used: formatBytes(used) })}${refetched}${night}`;
}
