import { performance } from 'node:perf_hooks';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

/**
 * Calls `request(i)` `total` times from `concurrency` concurrent loops and reports throughput and
 * latency percentiles (ms). `request` throws when an answer is wrong, so a figure is never of errors.
 */
export async function load(
  total: number,
  concurrency: number,
  request: (i: number) => Promise<void>,
): Promise<LoadFigures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const begun = performance.now();
        await request(i);
        latencies.push(performance.now() - begun);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requestsPerSecond: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export const describeLoad = (f: LoadFigures) =>
  `${f.requestsPerSecond.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`;
