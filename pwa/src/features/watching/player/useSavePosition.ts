import { useEffect, useRef, type RefObject } from 'react';
import { SAVE_EVERY_MS } from '../positions.ts';
import { savePosition } from '../sync.ts';

/**
 * Saves where the person is (decision 0163): on the phone every few seconds while playing, and on pause, at the end,
 * when the app goes to the background and when the player closes — those also go to the server (or its queue).
 * Nothing is saved before the film has started, so opening a film never overwrites where it was left.
 */
export function useSavePosition(
  videoRef: RefObject<HTMLVideoElement | null>,
  movie: { movieId: string; title: string },
  started: boolean,
): void {
  const startedRef = useRef(started);
  useEffect(() => {
    startedRef.current = started;
  }, [started]);
  const { movieId, title } = movie;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let lastSaved = 0;
    const save = (send: boolean) => {
      if (!startedRef.current || !Number.isFinite(video.duration) || video.duration <= 0) return;
      lastSaved = Date.now();
      const positionSeconds = video.ended ? video.duration : video.currentTime;
      void savePosition({ movieId, title, positionSeconds, durationSeconds: video.duration }, send).catch(
        () => undefined,
      );
    };
    const onTime = () => {
      if (!video.paused && Date.now() - lastSaved >= SAVE_EVERY_MS) save(false);
    };
    const onPause = () => save(true);
    // On `seeking`, not `seeked`: the new position is known at once, while the seek itself may wait for the file's
    // range to be read; a person who skips back and closes the app straight away keeps the skip.
    const onSeeking = () => {
      if (video.paused) save(false);
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') save(true);
    };
    const onPageHide = () => save(true);
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('pause', onPause);
    video.addEventListener('ended', onPause);
    video.addEventListener('seeking', onSeeking);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('ended', onPause);
      video.removeEventListener('seeking', onSeeking);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      // Leaving the player (another screen): where it was goes to the phone and the server.
      save(true);
    };
  }, [videoRef, movieId, title]);
}
