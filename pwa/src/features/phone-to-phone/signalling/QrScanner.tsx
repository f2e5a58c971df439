import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextArea } from '../../../components/ui/TextArea.tsx';
import { p2pT, useP2pT } from '../messages.ts';
import type { PhoneToPhoneMessageId } from '@filamu/shared/i18n/phone-to-phone.en';
import { type CameraProblem, openBackCamera, scanVideo, stopCamera } from './scan-qr.ts';
import {
  decodeSignal,
  MAX_TYPED_LENGTH,
  type SignalDescription,
  type SignalProblem,
  type SignalReading,
} from './signal-code.ts';

interface QrScannerProps {
  /** The half of the handshake this phone waits for: the receiver reads an offer, the sender an answer. */
  expect: SignalDescription['type'];
  /** Called once, with the first code that reads right; the camera is already off by then. */
  onSignal: (description: SignalDescription) => void;
  submitLabel?: string;
  className?: string;
}

type CameraState = 'opening' | 'scanning' | CameraProblem;

const CAMERA_PROBLEMS: Record<CameraProblem, PhoneToPhoneMessageId> = {
  refused: 'phone-to-phone.camera.refused',
  missing: 'phone-to-phone.camera.missing',
  busy: 'phone-to-phone.camera.busy',
};

/** While scanning, another QR code (a poster, a payment code) is not an error: the person moves on to the right one. */
function scanHint(problem: SignalProblem): string {
  if (problem.kind === 'wrong-phone' || problem.kind === 'newer-version') return problem.message;
  return p2pT('phone-to-phone.camera.notFilamu');
}

/**
 * Reads the other phone's code (decision 0243): the back camera's preview, read a few times a second, and always a way
 * to type the code instead — the camera may be refused, missing or unable to focus on a screen. The camera stops as
 * soon as a code reads right, and when the component goes.
 */
export function QrScanner({ expect, onSignal, submitLabel, className }: QrScannerProps) {
  const t = useP2pT();
  const video = useRef<HTMLVideoElement>(null);
  const [camera, setCamera] = useState<CameraState>('opening');
  const [hint, setHint] = useState<string | null>(null);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const latestOnSignal = useRef(onSignal);
  const delivered = useRef(false);
  const stopEverything = useRef<() => void>(() => {});

  useEffect(() => {
    latestOnSignal.current = onSignal;
  }, [onSignal]);

  const deliver = useCallback((reading: SignalReading): boolean => {
    if (!reading.ok || delivered.current) return false;
    delivered.current = true;
    stopEverything.current();
    latestOnSignal.current(reading.description);
    return true;
  }, []);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let stopScanning = () => {};
    const stop = () => {
      stopped = true;
      stopScanning();
      if (stream) stopCamera(stream);
      stream = null;
    };
    stopEverything.current = stop;

    void (async () => {
      const opening = await openBackCamera();
      if (stopped) {
        if (opening.ok) stopCamera(opening.stream);
        return;
      }
      if (!opening.ok) {
        setCamera(opening.problem);
        setTyping(true);
        return;
      }
      stream = opening.stream;
      const preview = video.current;
      if (!preview) return;
      preview.srcObject = stream;
      // Muted, inline video may play without a tap; if the browser still says no, frames are read all the same.
      await preview.play().catch(() => undefined);
      if (stopped) return;
      setCamera('scanning');
      stopScanning = scanVideo(preview, (text) => {
        const reading = decodeSignal(text, expect);
        if (!reading.ok) setHint(scanHint(reading.problem));
        return deliver(reading);
      });
    })();
    return stop;
  }, [expect, deliver]);

  const submitTyped = (event: FormEvent) => {
    event.preventDefault();
    const reading = decodeSignal(typed, expect);
    setTypedError(reading.ok ? null : reading.problem.message);
    deliver(reading);
  };

  const cameraProblem = camera !== 'opening' && camera !== 'scanning' ? camera : null;
  return (
    <div className={cn('mx-auto w-full max-w-xs space-y-4', className)}>
      <div className={cn('aspect-square overflow-hidden rounded-lg bg-black', cameraProblem && 'hidden')}>
        <video
          ref={video}
          muted
          playsInline
          aria-label={t('phone-to-phone.camera.preview')}
          className="size-full object-cover"
        />
      </div>
      {cameraProblem ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {t(CAMERA_PROBLEMS[cameraProblem])}
        </p>
      ) : (
        <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
          {camera === 'opening' ? t('phone-to-phone.camera.opening') : (hint ?? t('phone-to-phone.camera.point'))}
        </p>
      )}
      {typing ? (
        <form onSubmit={submitTyped} noValidate className="space-y-3">
          <TextArea
            label={t('phone-to-phone.typed.label')}
            hint={t('phone-to-phone.typed.hint')}
            error={typedError}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            maxLength={MAX_TYPED_LENGTH}
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            className="[&_textarea]:font-mono"
          />
          <Button type="submit" className="w-full">
            {submitLabel ?? t('phone-to-phone.typed.connect')}
          </Button>
        </form>
      ) : (
        <Button variant="outline" size="sm" className="w-full" onClick={() => setTyping(true)}>
          {t('phone-to-phone.typed.instead')}
        </Button>
      )}
    </div>
  );
}
