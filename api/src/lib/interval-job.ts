/**
 * Runs `run` every `intervalMs` on an unref'd timer, one pass at a time (a slow pass is never overlapped);
 * returns the stop function, which waits for a pass under way. `intervalMs <= 0` runs nothing.
 * `firstRunAfterMs` adds one pass that soon after start (jobs whose first pass should not wait a whole interval).
 */
export function startIntervalJob(
  run: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
  options: { firstRunAfterMs?: number } = {},
): () => Promise<void> {
  if (intervalMs <= 0) return async () => {};
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = run()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const first = options.firstRunAfterMs === undefined ? null : setTimeout(tick, options.firstRunAfterMs);
  first?.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    if (first) clearTimeout(first);
    if (running) await running;
  };
}
