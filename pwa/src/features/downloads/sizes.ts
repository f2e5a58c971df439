import { dataCostUgx, DOWNLOAD_SIZES, formatBytes, type DownloadSize, type MovieSize } from '@filamu/shared';

/** The words of the size choice before a download and of what a finished one cost (issue 10/14 §4–§6). */

/** No-break space: "≈ UGX 1,700" never breaks across lines on a narrow phone. */
const NBSP = '\u00a0';

/** `UGX 1,700`. */
function formatUgx(amount: number): string {
  return `UGX${NBSP}${Math.round(amount).toLocaleString('en-US')}`;
}

/** `≈ UGX 1,700 of data`: an estimate at the person's price per GB. */
export function costText(bytes: number, pricePerGbUgx: number): string {
  return `≈${NBSP}${formatUgx(dataCostUgx(bytes, pricePerGbUgx))} of data`;
}

/** The smallest size on offer ("from 290 MB" on the card); null when the movie lists none. */
function smallestSize(sizes: readonly MovieSize[]): MovieSize | null {
  return sizes.reduce<MovieSize | null>((min, s) => (min === null || s.bytes < min.bytes ? s : min), null);
}

/** What the card and the detail page say about size: `from 290.0 MB` with a choice, else null (the size as today). */
export function fromSizeText(sizes: readonly MovieSize[]): string | null {
  if (sizes.length < 2) return null;
  const smallest = smallestSize(sizes);
  return smallest ? `from ${formatBytes(smallest.bytes)}` : null;
}

/** What the browser says about the connection, as far as the size choice cares. */
export interface ConnectionHints {
  saveData?: boolean;
  type?: string;
}

/** The person's size settings on this phone: `ask` (the default) or a size to use without asking. */
export type SizePreference = 'ask' | DownloadSize;

/**
 * The size to use (or pre-select) among those on offer: the person's default size when set (or, when this movie
 * lacks it, the nearest smaller one, then the smallest); otherwise Small when the person saves data — Data Saver on,
 * or on mobile data without "Wi-Fi only" — and else the original, what the app downloaded before sizes existed
 * (decision 0138). Null when nothing is on offer.
 */
export function preselectSize(
  sizes: readonly MovieSize[],
  preference: SizePreference,
  connection: ConnectionHints | null,
  wifiOnly: boolean,
): DownloadSize | null {
  if (sizes.length === 0) return null;
  const offered = new Set(sizes.map((s) => s.size));
  const smallest = smallestSize(sizes)!.size;
  if (preference !== 'ask') {
    if (offered.has(preference)) return preference;
    const order = DOWNLOAD_SIZES.indexOf(preference);
    const below = [...DOWNLOAD_SIZES.slice(0, order)].reverse().find((s) => offered.has(s));
    return below ?? smallest;
  }
  const savesData = connection?.saveData === true || (connection?.type === 'cellular' && !wifiOnly);
  if (savesData) return smallest;
  return offered.has('original') ? 'original' : sizes[sizes.length - 1]!.size;
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
export function usedDataText(fetchedBytes: number, totalBytes: number | null): string {
  const used = Math.max(fetchedBytes, totalBytes ?? 0);
  const share = totalBytes === null ? 0 : refetchShare(fetchedBytes, totalBytes);
  const percent = share * 100;
  const refetched = share === 0 ? '' : ` (${percent < 1 ? '<1' : Math.round(percent)} % re-fetched)`;
  return `Used ${formatBytes(used)} of data${refetched}`;
}
