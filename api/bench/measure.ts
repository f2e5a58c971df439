import { performance } from 'node:perf_hooks';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

interface Sample {
  latencies: number[];
  seconds: number;
}

/** Calls `request(first + k)` for k < `total` from `concurrency` concurrent loops. */
async function run(
  first: number,
  total: number,
  concurrency: number,
  request: (i: number) => Promise<void>,
): Promise<Sample> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = first + next++;
        const begun = performance.now();
        await request(i);
        latencies.push(performance.now() - begun);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function figures(samples: Sample[]): LoadFigures {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  return {
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
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
  return figures([await run(0, total, concurrency, request)]);
}

/**
 * Two loads in alternating rounds (yardstick, subject, yardstick, subject, …), so that a busy neighbour on a
 * shared machine slows both alike and their ratio stays meaningful; each gets its `total` over all rounds,
 * with indexes running on across rounds.
 */
export async function loadSideBySide(
  rounds: number,
  concurrency: number,
  yardstick: { total: number; request: (i: number) => Promise<void> },
  subject: { total: number; request: (i: number) => Promise<void> },
): Promise<{ yardstick: LoadFigures; subject: LoadFigures }> {
  const samples = { yardstick: [] as Sample[], subject: [] as Sample[] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, load] of [
      ['yardstick', yardstick],
      ['subject', subject],
    ] as const) {
      const perRound = Math.ceil(load.total / rounds);
      samples[name].push(await run(round * perRound, perRound, concurrency, load.request));
    }
  }
  return { yardstick: figures(samples.yardstick), subject: figures(samples.subject) };
}

export const describeLoad = (f: LoadFigures) =>
  `${f.requestsPerSecond.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`;
