/**
 * Runs `run` every `intervalMs` on an unref'd timer, one pass at a time (a slow pass is never overlapped);
 * returns the stop function, which waits for a pass under way. `intervalMs <= 0` runs nothing.
 */
export function startIntervalJob(
  run: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  if (intervalMs <= 0) return async () => {};
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = run()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    if (running) await running;
  };
}
