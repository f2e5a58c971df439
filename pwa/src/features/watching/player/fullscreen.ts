/**
 * Full screen on the player's box, turned to landscape where the browser allows it (Android Chrome in full screen;
 * desktop browsers and iOS refuse the lock, and the film just fills the screen as it is).
 */
export async function enterFullscreen(box: HTMLElement, video: HTMLVideoElement): Promise<void> {
  if (box.requestFullscreen) {
    await box.requestFullscreen({ navigationUI: 'hide' });
    try {
      await screen.orientation.lock('landscape');
    } catch {
      // Not allowed here (desktop, or a browser without orientation lock): full screen is enough.
    }
    return;
  }
  // iPhone Safari: only the video element itself can go full screen.
  (video as HTMLVideoElement & { webkitEnterFullscreen?: () => void }).webkitEnterFullscreen?.();
}

export async function exitFullscreen(): Promise<void> {
  try {
    screen.orientation.unlock();
  } catch {
    // Nothing was locked.
  }
  if (document.fullscreenElement) await document.exitFullscreen();
}
