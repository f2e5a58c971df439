import type { BrowserContext, Locator, Page } from 'playwright-core';

/**
 * A camera for a phone in a test: `getUserMedia` answers a real MediaStream — a canvas's, ten frames a second — that
 * films whatever picture the test holds up to it (`holdUpTo`), on a white ground like a phone's screen seen close.
 * Everything after the stream is the app's own: its scanner reads these frames exactly as it reads a camera's. Chromium
 * can play only one fixed file as its fake camera for the whole browser, and the codes these tests read are made
 * while they run, so this is how one phone's QR code reaches the other's camera.
 */
export async function giveCamera(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const held: { image: CanvasImageSource | null } = { image: null };
    Object.defineProperty(window, '__heldToCamera', { value: held });
    const camera = async (): Promise<MediaStream> => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 640;
      const draw = canvas.getContext('2d')!;
      const film = () => {
        draw.fillStyle = '#ffffff';
        draw.fillRect(0, 0, canvas.width, canvas.height);
        if (held.image) draw.drawImage(held.image, 80, 80, 480, 480);
      };
      film();
      const timer = setInterval(film, 100);
      const stream = canvas.captureStream(10);
      for (const track of stream.getTracks()) track.addEventListener('ended', () => clearInterval(timer));
      return stream;
    };
    if (navigator.mediaDevices) navigator.mediaDevices.getUserMedia = camera;
  });
}

/** Holds what `shown` looks like on another phone's screen (a screenshot of it) up to this phone's camera. */
export async function holdUpTo(camera: Page, shown: Locator): Promise<void> {
  const png = (await shown.screenshot()).toString('base64');
  await camera.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    (window as unknown as { __heldToCamera: { image: CanvasImageSource | null } }).__heldToCamera.image = image;
  }, png);
}

/** Takes the picture away: the camera sees a blank screen again. */
export async function putCameraDown(camera: Page): Promise<void> {
  await camera.evaluate(() => {
    (window as unknown as { __heldToCamera: { image: CanvasImageSource | null } }).__heldToCamera.image = null;
  });
}
