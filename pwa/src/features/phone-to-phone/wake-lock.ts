/**
 * Keeps the screen on while films move between phones: a locked screen on Android soon freezes the page, and with it
 * the transfer. The browser drops the lock whenever the page is hidden, so it is asked for again each time the page
 * comes back. `onHeld` says whether the screen is held, so the person can be told to keep it awake when the phone
 * refuses (battery saver, or no Screen Wake Lock at all).
 */
export async function holdScreenOn(onHeld: (held: boolean) => void): Promise<() => void> {
  let lock: WakeLockSentinel | null = null;
  let released = false;

  const acquire = async () => {
    if (released || document.visibilityState !== 'visible') return;
    try {
      lock = await navigator.wakeLock.request('screen');
      onHeld(true);
      lock.addEventListener('release', () => onHeld(false), { once: true });
    } catch {
      onHeld(false);
    }
  };
  const onVisible = () => void acquire();
  document.addEventListener('visibilitychange', onVisible);
  await acquire();

  return () => {
    released = true;
    document.removeEventListener('visibilitychange', onVisible);
    void lock?.release().catch(() => undefined);
  };
}
