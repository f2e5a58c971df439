import { formatDate, trimTrailingSlashes } from '@filamu/shared';

/**
 * Where a movie's thumbnail comes from (product §2 Movies): a full URL is used as is; a path starting `/thumbnails/`
 * is put on the content-delivery domain; anything else has no image. The API resolves thumbnails to full URLs
 * (CDN, local /files or a signed link), so the second rule only matters for values stored by an older backend.
 */
export function thumbnailSource(value: string | null | undefined, cdnBaseUrl: string | null): string | null {
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('/thumbnails/') && cdnBaseUrl) return `${trimTrailingSlashes(cdnBaseUrl)}${value}`;
  return null;
}

/** Upload date as the lists show it (the one date formatter, `1 Feb 2027`); 'N/A Date' for a value that is not a date (product §2). */
export function uploadDate(value: string | null | undefined): string {
  const formatted = formatDate(value);
  return formatted === 'N/A' ? 'N/A Date' : formatted;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

export function speedText(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1024 ** 2).toFixed(1)} MB/s`;
}
