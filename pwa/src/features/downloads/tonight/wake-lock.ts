import type { ScreenHold } from './night-machine.ts';

/**
 * Keeps the screen on through the night: a locked screen on Android soon freezes the page, and with it the downloads.
 * The browser lets the lock go whenever the page is hidden (and may refuse it on battery saver), so it is asked for
 * again each time the page comes back, and every change is told to `onHold` for the screen to say in words.
 */
export function holdScreen(onHold: (hold: ScreenHold) => void): () => void {
  let lock: WakeLockSentinel | null = null;
  let released = false;

  const acquire = async () => {
    if (released || lock || document.visibilityState !== 'visible') return;
    if (!('wakeLock' in navigator)) return onHold('unsupported');
    try {
      const held = await navigator.wakeLock.request('screen');
      if (released) return void held.release().catch(() => undefined);
      lock = held;
      onHold('held');
      held.addEventListener(
        'release',
        () => {
          lock = null;
          if (!released) onHold('lost');
        },
        { once: true },
      );
    } catch {
      onHold('refused');
    }
  };
  const onVisible = () => void acquire();
  document.addEventListener('visibilitychange', onVisible);
  void acquire();

  return () => {
    released = true;
    document.removeEventListener('visibilitychange', onVisible);
    void lock?.release().catch(() => undefined);
    lock = null;
  };
}
