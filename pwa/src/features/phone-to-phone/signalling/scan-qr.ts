/**
 * Reading QR codes from the phone's back camera (decision 0243): Chrome on Android's own `BarcodeDetector` where it
 * reads QR codes, else a small decoder (@paulmillr/qr, loaded only then) on frames drawn to a canvas. A few frames a
 * second is enough for a code held still, and leaves a cheap phone's CPU to the camera.
 */

export type CameraProblem = 'refused' | 'missing' | 'busy';

export type CameraOpening = { ok: true; stream: MediaStream } | { ok: false; problem: CameraProblem };

/** Frames read a second by the fallback decoder; BarcodeDetector is fast enough for the same pace. */
const SCAN_INTERVAL_MS = 250;
/** The fallback decoder's frame, long side: a version 9 code filling half of it still has 3 pixels a module. */
const MAX_FRAME_SIDE = 720;

/** The slice of the Barcode Detection API used here; TypeScript's DOM library does not describe it. */
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

/** The back camera, or why there is none to use. */
export async function openBackCamera(): Promise<CameraOpening> {
  if (!navigator.mediaDevices?.getUserMedia) return { ok: false, problem: 'missing' };
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    return { ok: true, stream };
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') return { ok: false, problem: 'refused' };
    if (name === 'NotReadableError' || name === 'AbortError') return { ok: false, problem: 'busy' };
    return { ok: false, problem: 'missing' };
  }
}

export function stopCamera(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

type FrameReader = (video: HTMLVideoElement) => Promise<string[]>;

async function nativeReader(): Promise<FrameReader | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video)).map((found) => found.rawValue);
  } catch {
    return null;
  }
}

async function canvasReader(): Promise<FrameReader> {
  const { default: decodeQR } = await import('@paulmillr/qr/decode.js');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    const scale = Math.min(1, MAX_FRAME_SIDE / Math.max(video.videoWidth, video.videoHeight));
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (!context || width === 0 || height === 0) return [];
    canvas.width = width;
    canvas.height = height;
    context.drawImage(video, 0, 0, width, height);
    try {
      return [decodeQR(context.getImageData(0, 0, width, height))];
    } catch {
      // No code in this frame, or one too blurred to read: the next frame may be sharper.
      return [];
    }
  };
}

/**
 * Reads `video` a few times a second and gives each text found to `onText` until it returns true (the text was the
 * one wanted) or the returned function is called. It never stops the camera: that is for whoever opened it.
 */
export function scanVideo(video: HTMLVideoElement, onText: (text: string) => boolean): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reader = nativeReader().then((native) => native ?? canvasReader());

  const scanOnce = async () => {
    if (stopped) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
      let texts: string[] = [];
      try {
        texts = await (await reader)(video);
      } catch {
        // A frame the detector could not take (the camera turning, the page hidden): try the next one.
      }
      for (const text of texts) {
        if (stopped) return;
        if (onText(text)) {
          stopped = true;
          return;
        }
      }
    }
    if (!stopped) timer = setTimeout(() => void scanOnce(), SCAN_INTERVAL_MS);
  };
  void scanOnce();

  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
