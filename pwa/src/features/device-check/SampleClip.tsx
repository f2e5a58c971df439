import type { RenditionKind } from '@filamu/shared';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { mediaErrorWords, type PlayResult } from './words.ts';
import { deviceCheckT, useDeviceCheckT } from './messages.ts';

/** A clip that has not ended in this long is taken as not playing (it lasts 3 seconds). */
const PLAY_TIMEOUT_MS = 15_000;

/**
 * "Play 3 seconds": plays the rendition's sample clip, encoded like the films (scripts/device-check-clips.ts), and
 * says whether it played through or the browser's MediaError. The clip is fetched only when the button is pressed.
 */
export function SampleClip({
  kind,
  name,
  result,
  onResult,
}: {
  kind: RenditionKind;
  name: string;
  result: PlayResult | null;
  onResult: (result: PlayResult) => void;
}) {
  const t = useDeviceCheckT();
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const finish = (outcome: PlayResult) => {
    clearTimeout(timer.current);
    setPlaying(false);
    onResult(outcome);
  };

  const play = () => {
    const element = video.current;
    if (!element) return;
    setPlaying(true);
    element.src = `/device-check/${kind}.mp4`;
    timer.current = setTimeout(
      () => finish({ outcome: 'failed', reason: deviceCheckT('device-check.clip.timeout') }),
      PLAY_TIMEOUT_MS,
    );
    element.play().catch((error: unknown) => {
      // The element's own error (its MediaError) is said by onError; a refusal without one is said here.
      if (!element.error) finish({ outcome: 'failed', reason: error instanceof Error ? error.message : String(error) });
    });
  };

  return (
    <div className="mt-3 space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          variant="outline"
          onClick={play}
          disabled={playing}
          aria-label={t('device-check.clip.play.label', { name })}
        >
          {playing ? t('device-check.clip.playing') : t('device-check.clip.play')}
        </Button>
        <p aria-live="polite" className="text-sm font-medium" data-testid={`played-${kind}`}>
          {result?.outcome === 'played' && (
            <span className="text-green-800 dark:text-green-300">{t('device-check.clip.played')}</span>
          )}
          {result?.outcome === 'failed' && (
            <span className="text-red-800 dark:text-red-300">
              {t('device-check.clip.failed', { reason: result.reason })}
            </span>
          )}
        </p>
      </div>
      <video
        ref={video}
        playsInline
        preload="none"
        aria-label={t('device-check.clip.sample', { name })}
        hidden={!playing && result?.outcome !== 'played'}
        onEnded={() => finish({ outcome: 'played' })}
        onError={(event) => finish({ outcome: 'failed', reason: mediaErrorWords(event.currentTarget.error) })}
        className="aspect-video w-full max-w-xs rounded-lg bg-black"
      />
    </div>
  );
}
