import { contracts } from '@filamu/shared';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api.ts';
import type { PlayerSubtitle } from '../watching/player/subtitle-track.ts';
import { getSubtitles, putSubtitles, type StoredSubtitleTrack } from './engine/store.ts';

/**
 * A download's subtitles on this phone (decision 0173): kept by the download engine as the film completes (before
 * the record says it is done) and fetched again here whenever the Play screen opens online (a language attached,
 * replaced or removed since), in IndexedDB next to the record. Best effort: a failed fetch keeps what the phone
 * already holds, and the film plays either way.
 */
async function syncSubtitles(key: string, movieId: string): Promise<StoredSubtitleTrack[] | null> {
  try {
    const { movie } = await api(contracts.movies.userMovie, { params: { id: movieId } }, { redirectOn401: false });
    const tracks = await Promise.all(
      movie.subtitles.map(async ({ language, label }) => ({
        language,
        label,
        vtt: await api(contracts.subtitles.movieSubtitles, { params: { id: movieId, language } }),
      })),
    );
    await putSubtitles({ key, tracks, fetchedAt: Date.now() });
    return tracks;
  } catch {
    return null;
  }
}

/**
 * The subtitles held for a download as `<track>` sources (object URLs of the WebVTT text), refreshed from the server
 * first when the phone is online. The URLs are made and revoked inside one effect run, so none outlives its page.
 */
export function useSubtitleTracks(key: string, movieId: string): PlayerSubtitle[] {
  const [tracks, setTracks] = useState<PlayerSubtitle[]>([]);
  useEffect(() => {
    let alive = true;
    const made: string[] = [];
    const show = (held: StoredSubtitleTrack[]) => {
      if (!alive) return;
      const urls = held.map(({ language, label, vtt }) => ({
        language,
        label,
        src: URL.createObjectURL(new Blob([vtt], { type: 'text/vtt' })),
      }));
      made.push(...urls.map((track) => track.src));
      setTracks(urls);
    };
    void getSubtitles(key)
      .catch(() => undefined)
      .then((held) => {
        if (held) show(held.tracks);
        if (!navigator.onLine) return;
        return syncSubtitles(key, movieId).then((fresh) => {
          // Unchanged files keep their tracks (a new URL would make the player load them again).
          if (fresh && !sameTracks(fresh, held?.tracks)) show(fresh);
        });
      });
    return () => {
      alive = false;
      for (const url of made) URL.revokeObjectURL(url);
    };
  }, [key, movieId]);
  return tracks;
}

function sameTracks(a: StoredSubtitleTrack[], b: StoredSubtitleTrack[] | undefined): boolean {
  return (
    b !== undefined &&
    a.length === b.length &&
    a.every((t, i) => t.language === b[i]!.language && t.label === b[i]!.label && t.vtt === b[i]!.vtt)
  );
}
