import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.ts';
import { newRunId, withLogContext } from '../../lib/log-context.ts';
import type { JobName, Metrics } from './registry.ts';

/**
 * One pass of a background job, observed: every log line of the pass carries `job` and a fresh `runId`, and its
 * outcome, duration and last success are counted. The pass never rejects: `onError` runs inside the pass's log
 * context (a rejection handled by the timer outside it would log without the runId).
 */
export function observedPass(
  deps: { metrics: Metrics; clock: Clock; logger: Logger },
  job: JobName,
  run: () => Promise<unknown>,
  onError: (error: unknown) => void,
): () => Promise<void> {
  return () =>
    withLogContext({ job, runId: newRunId() }, async () => {
      const stopTimer = deps.metrics.jobDuration.startTimer({ job });
      try {
        await run();
        deps.metrics.jobRuns.inc({ job, outcome: 'ok' });
        deps.metrics.jobLastSuccess.set({ job }, deps.clock.now().getTime() / 1000);
      } catch (error) {
        deps.metrics.jobRuns.inc({ job, outcome: 'error' });
        onError(error);
      } finally {
        stopTimer();
      }
    });
}
