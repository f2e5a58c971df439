import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { useWatchPositions } from '../hooks.ts';
import { resumePoint } from '../positions.ts';
import { enterFullscreen, exitFullscreen } from './fullscreen.ts';
import { PlayerControls, type ControlsActions, type ControlsState } from './PlayerControls.tsx';
import { readPreferences, saveRate, saveSubtitles, saveVolume } from './preferences.ts';
import { ResumePrompt } from './ResumePrompt.tsx';
import { updatePositionState, useMediaSession, type SessionMovie } from './useMediaSession.ts';
import { usePlayerKeys } from './usePlayerKeys.ts';
import { useSavePosition } from './useSavePosition.ts';
import type { PlayerSubtitle } from './subtitle-track.ts';

/** Two taps closer than this are a double tap (seek), not two play/pause taps. */
const DOUBLE_TAP_MS = 300;
const SKIP_SECONDS = 10;

export interface PlayerMovie extends SessionMovie {
  movieId: string;
}

/** Where the film was when the player closed (another screen, Back). */
export interface PlayerLeft {
  /** False when it was opened and closed without playing. */
  started: boolean;
  positionSeconds: number;
  durationSeconds: number;
}

/**
 * The player of a downloaded film (decision 0165): plays an object URL of the file on the phone (no network), offers
 * to resume where it was left, saves the position as it goes, and adds what a phone needs — lock-screen controls,
 * full screen in landscape, ±10 s buttons and double taps, speed, a remembered volume and desktop shortcuts; and its
 * subtitles as `<track>`s, the language chosen last shown again (decision 0173).
 */
export function VideoPlayer({
  src,
  movie,
  onLeave,
  subtitles = [],
}: {
  src: string;
  movie: PlayerMovie;
  /** Told once, as the player closes: the screen decides what leaving means (decision 0174). */
  onLeave?: (left: PlayerLeft) => void;
  subtitles?: PlayerSubtitle[];
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const playRef = useRef<HTMLButtonElement>(null);
  const tapRef = useRef<{ at: number; timer: number | null }>({ at: 0, timer: null });
  const [prefs] = useState(readPreferences);
  const [state, setState] = useState<ControlsState>({
    playing: false,
    current: 0,
    duration: Number.NaN,
    volume: prefs.volume,
    muted: prefs.muted,
    rate: prefs.rate,
    fullscreen: false,
  });
  const [chosenSubtitles, setChosenSubtitles] = useState(prefs.subtitles);
  // The remembered language when this film has it; otherwise Off (the memory stays for the next film).
  const shownSubtitles = subtitles.some((s) => s.language === chosenSubtitles) ? chosenSubtitles : null;
  const [started, setStarted] = useState(false);
  const startedRef = useRef(false);
  const onLeaveRef = useRef(onLeave);
  useEffect(() => {
    startedRef.current = started;
    onLeaveRef.current = onLeave;
  });
  const { loaded, positions } = useWatchPositions();
  const resumeAt = loaded && !started ? resumePoint(positions[movie.movieId]) : null;

  // Before the person chooses, the film waits where it was left: pressing Play (or a lock-screen play) resumes too.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || started || !loaded) return;
    const place = () => {
      video.currentTime = resumeAt ?? 0;
      updatePositionState(video);
    };
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) place();
    else video.addEventListener('loadedmetadata', place, { once: true });
    return () => video.removeEventListener('loadedmetadata', place);
  }, [resumeAt, started, loaded]);

  useEffect(() => {
    const onChange = () => setState((s) => ({ ...s, fullscreen: document.fullscreenElement === boxRef.current }));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Tracks may be added after the video element (the files come from IndexedDB): set the mode on each as it arrives.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const apply = () => {
      for (const track of Array.from(video.textTracks)) {
        track.mode = track.language === shownSubtitles ? 'showing' : 'disabled';
      }
    };
    apply();
    video.textTracks.addEventListener('addtrack', apply);
    return () => video.textTracks.removeEventListener('addtrack', apply);
  }, [shownSubtitles, subtitles]);

  const skip = useCallback((seconds: number) => {
    const video = videoRef.current;
    if (!video || !Number.isFinite(video.duration)) return;
    video.currentTime = Math.min(Math.max(0, video.currentTime + seconds), video.duration);
    updatePositionState(video);
  }, []);

  const actions: ControlsActions = {
    togglePlay: () => {
      const video = videoRef.current;
      if (!video) return;
      if (video.paused) void video.play().catch(() => undefined);
      else video.pause();
    },
    skip,
    seekTo: (seconds) => {
      const video = videoRef.current;
      if (!video) return;
      video.currentTime = seconds;
      updatePositionState(video);
    },
    setVolume: (volume) => {
      const video = videoRef.current;
      if (!video) return;
      video.volume = volume;
      video.muted = volume === 0;
    },
    toggleMute: () => {
      const video = videoRef.current;
      if (!video) return;
      if (video.muted && video.volume === 0) video.volume = 1;
      video.muted = !video.muted;
    },
    setRate: (rate) => {
      const video = videoRef.current;
      if (!video) return;
      video.defaultPlaybackRate = rate;
      video.playbackRate = rate;
    },
    setSubtitles: (language) => {
      setChosenSubtitles(language);
      saveSubtitles(language);
    },
    toggleFullscreen: () => {
      const video = videoRef.current;
      const box = boxRef.current;
      if (!video || !box) return;
      const done = document.fullscreenElement ? exitFullscreen() : enterFullscreen(box, video);
      void done.catch(() => undefined);
    },
  };

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    return () => {
      onLeaveRef.current?.({
        started: startedRef.current,
        positionSeconds: video.ended ? video.duration : video.currentTime,
        durationSeconds: video.duration,
      });
    };
  }, []);

  useMediaSession(videoRef, movie, skip);
  usePlayerKeys(actions);
  useSavePosition(videoRef, movie, started);

  const begin = (at: number) => {
    const video = videoRef.current;
    if (!video) return;
    video.currentTime = at;
    setStarted(true);
    void video.play().catch(() => undefined);
    playRef.current?.focus({ preventScroll: true });
  };

  /** One tap plays or pauses; a double tap on the left or right half goes 10 s back or forward. */
  const onTap = (event: MouseEvent<HTMLVideoElement>) => {
    const tap = tapRef.current;
    const now = Date.now();
    if (tap.timer !== null && now - tap.at < DOUBLE_TAP_MS) {
      window.clearTimeout(tap.timer);
      tap.timer = null;
      const box = event.currentTarget.getBoundingClientRect();
      skip(event.clientX - box.left < box.width / 2 ? -SKIP_SECONDS : SKIP_SECONDS);
      return;
    }
    tap.at = now;
    tap.timer = window.setTimeout(() => {
      tap.timer = null;
      actions.togglePlay();
    }, DOUBLE_TAP_MS);
  };

  const syncFromVideo = () => {
    const video = videoRef.current;
    if (!video) return;
    setState((s) => ({
      ...s,
      playing: !video.paused,
      current: video.currentTime,
      duration: video.duration,
      volume: video.volume,
      muted: video.muted,
      rate: video.playbackRate,
    }));
  };

  return (
    <div className="space-y-3">
      {resumeAt !== null && (
        <ResumePrompt at={resumeAt} onResume={() => begin(resumeAt)} onStartOver={() => begin(0)} />
      )}
      <div
        ref={boxRef}
        className={cn('overflow-hidden', state.fullscreen ? 'flex h-full flex-col bg-black' : 'rounded-2xl')}
      >
        <video
          ref={videoRef}
          src={src}
          playsInline
          preload="metadata"
          aria-label={movie.title}
          onClick={onTap}
          onLoadedMetadata={(event) => {
            const video = event.currentTarget;
            video.volume = prefs.volume;
            video.muted = prefs.muted;
            video.defaultPlaybackRate = prefs.rate;
            video.playbackRate = prefs.rate;
            syncFromVideo();
            updatePositionState(video);
          }}
          onPlay={() => {
            setStarted(true);
            syncFromVideo();
          }}
          onPause={syncFromVideo}
          onTimeUpdate={syncFromVideo}
          onDurationChange={syncFromVideo}
          onSeeked={syncFromVideo}
          onVolumeChange={(event) => {
            syncFromVideo();
            saveVolume(event.currentTarget.volume, event.currentTarget.muted);
          }}
          onRateChange={(event) => {
            syncFromVideo();
            saveRate(event.currentTarget.playbackRate);
            updatePositionState(event.currentTarget);
          }}
          className={cn('w-full bg-black', state.fullscreen ? 'min-h-0 flex-1' : 'aspect-video')}
        >
          {subtitles.map((track) => (
            <track
              key={track.language}
              kind="subtitles"
              srcLang={track.language}
              label={track.label}
              src={track.src}
              default={track.language === shownSubtitles}
            />
          ))}
        </video>
        <PlayerControls
          state={state}
          actions={actions}
          playRef={playRef}
          inFullscreen={state.fullscreen}
          subtitles={{ tracks: subtitles, shown: shownSubtitles }}
        />
      </div>
    </div>
  );
}
