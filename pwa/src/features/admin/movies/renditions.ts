import { formatBytes, RENDITION_ADMIN_LABELS, type AdminMovie, type AdminRendition } from '@filamu/shared';
import { formatTimeLeft } from '../../../lib/eta.ts';

/** The console's words for a rendition's state (issue 10/14 §6). */
export function renditionText(rendition: AdminRendition): string {
  switch (rendition.state) {
    case 'queued':
      return 'Queued';
    case 'encoding': {
      const percent = Math.floor(Math.max(0, Math.min(1, rendition.progress)) * 100);
      const left = rendition.etaSeconds === null ? '' : formatTimeLeft(rendition.etaSeconds);
      return left ? `Encoding ${percent} % · ${left.charAt(0).toLowerCase()}${left.slice(1)}` : `Encoding ${percent} %`;
    }
    case 'ready':
      return rendition.sizeBytes ? `Ready · ${formatBytes(rendition.sizeBytes)}` : 'Ready';
    // A skip with a reason: the server's ffmpeg cannot make it (the HEVC Small without libx265); else no upscaling.
    case 'skipped':
      return rendition.error?.trim() ? `Skipped: ${rendition.error.trim()}` : 'Skipped (source smaller)';
    case 'failed':
      return `Failed: ${rendition.error?.trim() || 'unknown reason'}`;
    case 'cancelled':
      return 'Cancelled';
  }
}

/** `Small (HEVC): Encoding 42 % · 3 min left`: the operator's names, which tell the two Smalls apart. */
export function renditionLine(rendition: AdminRendition): string {
  return `${RENDITION_ADMIN_LABELS[rendition.kind]}: ${renditionText(rendition)}`;
}

/** While any rendition is queued or encoding, the movie list polls for its progress. */
export function anyEncoding(movies: readonly Pick<AdminMovie, 'renditions' | 'encryption'>[] | undefined): boolean {
  return !!movies?.some(
    (m) =>
      m.renditions.some((r) => r.state === 'queued' || r.state === 'encoding') ||
      m.encryption.encrypted < m.encryption.files,
  );
}

/**
 * The encryption job's progress over the library (decision 0235): files phones can get that are encrypted, of all;
 * null when none waits.
 */
export function encryptionBacklog(
  movies: readonly Pick<AdminMovie, 'encryption'>[] | undefined,
): { encrypted: number; files: number } | null {
  if (!movies) return null;
  const encrypted = movies.reduce((sum, m) => sum + m.encryption.encrypted, 0);
  const files = movies.reduce((sum, m) => sum + m.encryption.files, 0);
  return encrypted < files ? { encrypted, files } : null;
}
