import { type AdminMovie, contracts, formatBytes, RENDITION_ADMIN_LABELS } from '@filamu/shared';
import type { ApiClient } from './client.ts';

const POLL_MS = 2_000;

const busy = (movie: AdminMovie) => movie.renditions.some((r) => r.state === 'queued' || r.state === 'encoding');

/** `Small (HEVC) 300 KB · Small (H.264) 412 KB · Standard 1.0 MB · HD 2.4 MB · Original 8.7 MB`, or why there are no sizes. */
function describeSizes(movie: AdminMovie): string {
  if (movie.renditions.length === 0) return 'Original only (the server has no ffmpeg)';
  const failed = movie.renditions.filter((r) => r.state === 'failed').map((r) => RENDITION_ADMIN_LABELS[r.kind]);
  const sizes = movie.sizes.map((s) => `${RENDITION_ADMIN_LABELS[s.size]} ${formatBytes(s.bytes)}`).join(' · ');
  return failed.length ? `${sizes} (${failed.join(', ')} failed: see Admin → Movies)` : sizes;
}

/**
 * Waits (at most `timeoutMs`) while the server encodes the demo's sizes, printing each movie's sizes once they are
 * made: the demo is only worth trying once Small is there. The encode goes on in the server after a timeout.
 */
export async function reportSizes(
  api: ApiClient,
  movieIds: readonly string[],
  log: (line: string) => void,
  timeoutMs: number,
): Promise<void> {
  const pending = new Set(movieIds);
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    const { movies } = await api.call('Listing movies', contracts.movies.adminListMovies, {});
    const mine = movies.filter((m) => pending.has(m.id));
    if (!announced && mine.some(busy)) {
      log('  Making each movie in Small (H.264 and HEVC), Standard and HD (ffmpeg, in the server)…');
      announced = true;
    }
    for (const movie of mine.filter((m) => !busy(m))) {
      log(`  ✓ ${movie.title.padEnd(22)} ${describeSizes(movie)}`);
      pending.delete(movie.id);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      log(`  ${pending.size} movie(s) still being encoded: Admin → Movies shows their progress.`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
