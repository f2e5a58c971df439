import { useEffect, type RefObject } from 'react';

export interface SessionMovie {
  title: string;
  vj: string;
  category: string;
  thumbnailUrl: string | null;
}

/** Tells the lock screen what plays and how far along it is; quietly nothing where the browser has no Media Session. */
export function updatePositionState(video: HTMLVideoElement): void {
  if (!('mediaSession' in navigator) || !Number.isFinite(video.duration) || video.duration <= 0) return;
  try {
    navigator.mediaSession.setPositionState({
      duration: video.duration,
      playbackRate: video.playbackRate,
      position: Math.min(video.currentTime, video.duration),
    });
  } catch {
    // A browser that rejects the figures mid-change: the next event sets them again.
  }
}

/**
 * Lock screen and notification controls (Media Session): the title, the VJ and the poster as artwork, with play, pause,
 * ±`skip` seconds and seeking from there. Cleared when the player closes.
 */
export function useMediaSession(
  videoRef: RefObject<HTMLVideoElement | null>,
  movie: SessionMovie,
  skip: (seconds: number) => void,
): void {
  const { title, vj, category, thumbnailUrl } = movie;
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({
      title,
      artist: vj || category,
      album: 'Filamu',
      artwork: thumbnailUrl ? [{ src: new URL(thumbnailUrl, location.href).href }] : [],
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => void videoRef.current?.play().catch(() => undefined)],
      ['pause', () => videoRef.current?.pause()],
      ['seekbackward', (details) => skip(-(details.seekOffset ?? 10))],
      ['seekforward', (details) => skip(details.seekOffset ?? 10)],
      [
        'seekto',
        (details) => {
          const video = videoRef.current;
          if (!video || details.seekTime === undefined) return;
          video.currentTime = details.seekTime;
          updatePositionState(video);
        },
      ],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // This browser does not know the action.
      }
    }
    return () => {
      session.metadata = null;
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // As above.
        }
      }
    };
  }, [videoRef, title, vj, category, thumbnailUrl, skip]);
}
