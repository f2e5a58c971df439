/**
 * The transcode bench's tables (Markdown, to paste into a decision): per source, the ladder's renditions, then the
 * Small (HEVC) settings being tried, each beside the H.264 Small of the same source and run; then the ladder's speed
 * per source, and a summary of the tried settings over all sources (the worst case decides).
 */
import type { SourceName } from './film-like-sources.ts';
import type { Encoded } from './transcode-encode.ts';

/** A Kinayuganda film's length: the 200 MB goal of Small (HEVC) is for 90 minutes. */
const FILM_SECONDS = 90 * 60;
const SMALL_SPEED_GOAL = 5;

interface Context {
  seconds: number;
  cores: number;
  sources: readonly SourceName[];
  /** Every rung ran, so the ladder's total speed can be given. */
  allRungs: boolean;
}

const write = (text: string) => process.stdout.write(text);
const kbps = (bytes: number, seconds: number) => Math.round((bytes * 8) / seconds / 1000);
const filmMegabytes = (bytes: number, seconds: number) => ((bytes * FILM_SECONDS) / seconds / 1e6).toFixed(0);
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(4)}`;
const settingsOf = (r: Encoded) =>
  `${r.step.preset}/crf ${r.step.crf}/${r.step.audioCodec} ${r.step.audioBitsPerSecond / 1000}k`;

function misses(row: Encoded, small: Encoded | undefined): string[] {
  return [
    row.bytes > row.capBytes ? 'over cap' : '',
    row.step.kind === 'small' && row.ssim < 0.9 ? 'SSIM < 0.90' : '',
    row.step.kind === 'small-hevc' && small && row.ssim < small.ssim ? 'SSIM below H.264 Small' : '',
  ].filter(Boolean);
}

function table(rows: Encoded[], small: Encoded | undefined, seconds: number): number {
  write(
    '| rendition | settings | × real time (idle machine) | × real time (wall clock) | CPU ÷ H.264 Small | ' +
      'kbit/s (audio) | MB per 90 min / cap | SSIM | SSIM − H.264 Small | goals |\n' +
      '|---|---|---|---|---|---|---|---|---|---|\n',
  );
  let failures = 0;
  for (const row of rows) {
    const missed = misses(row, small);
    failures += row.variant ? 0 : missed.length;
    const cpuRatio = small ? `${(row.cpuWallSeconds / small.cpuWallSeconds).toFixed(2)}` : '–';
    const versusSmall = small && row.step.kind === 'small-hevc' ? signed(row.ssim - small.ssim) : '–';
    write(
      `| ${row.step.kind} | ${settingsOf(row)} | ${(seconds / row.cpuWallSeconds).toFixed(2)}× | ` +
        `${(seconds / row.wallSeconds).toFixed(2)}× | ${cpuRatio} | ` +
        `${kbps(row.bytes, seconds)} (${kbps(row.audioBytes, seconds)}) | ` +
        `${filmMegabytes(row.bytes, seconds)} / ${filmMegabytes(row.capBytes, seconds)} ` +
        `(${Math.round((100 * row.bytes) / row.capBytes)} %) | ${row.ssim.toFixed(4)} | ${versusSmall} | ` +
        `${missed.join(', ') || 'ok'} |\n`,
    );
  }
  return failures;
}

/** The ladder's CPU seconds for one source, with `hevc` in place of the ladder's own Small (HEVC) when given. */
function ladderSeconds(ladder: Encoded[], hevc?: Encoded): number {
  return ladder.reduce((sum, r) => sum + (hevc && r.step.kind === 'small-hevc' ? hevc : r).cpuWallSeconds, 0);
}

/** Prints every table and returns how many goals the ladder's own settings missed. */
export function report(results: Encoded[], context: Context): number {
  const { seconds } = context;
  let failures = 0;
  write(`\nTranscode bench: ${seconds} s films, ${context.cores} cores\n`);
  for (const name of context.sources) {
    const ofSource = results.filter((r) => r.source.name === name);
    const ladder = ofSource.filter((r) => !r.variant);
    const tried = ofSource.filter((r) => r.variant);
    const small = ladder.find((r) => r.step.kind === 'small');
    write(`\n### ${name} (${ofSource[0]?.source.height ?? '?'}p)\n\n`);
    failures += table(ladder, small, seconds);
    if (context.allRungs) {
      const total = ladderSeconds(ladder);
      const wall = ladder.reduce((sum, r) => sum + r.wallSeconds, 0);
      const smallSpeed = small ? seconds / small.cpuWallSeconds : 0;
      failures += (total <= seconds ? 0 : 1) + (smallSpeed >= SMALL_SPEED_GOAL ? 0 : 1);
      write(
        `\nWhole ladder: ${total.toFixed(0)} s of CPU/core for a ${seconds} s film = ${(seconds / total).toFixed(2)}× ` +
          `(${total <= seconds ? 'ok' : 'goal ≥ 1×'}; wall clock ${(seconds / wall).toFixed(2)}×); ` +
          `H.264 Small ${smallSpeed.toFixed(2)}× (${smallSpeed >= SMALL_SPEED_GOAL ? 'ok' : `goal ≥ ${SMALL_SPEED_GOAL}×`})\n`,
      );
    }
    if (tried.length) {
      write(`\nSmall (HEVC) settings tried on ${name}:\n\n`);
      table(tried, small, seconds);
    }
  }
  summary(results, context);
  return failures;
}

/** Per Small (HEVC) setting, its worst source: the highest rate, the lowest SSIM against H.264 Small, the slowest ladder. */
function summary(results: Encoded[], context: Context): void {
  const hevc = results.filter((r) => r.step.kind === 'small-hevc');
  const settings = [...new Set(hevc.map((r) => `${r.variant ? 'tried' : 'ladder'}: ${settingsOf(r)}`))];
  if (settings.length < 2 && context.sources.length < 2) return;
  write(
    `\nSmall (HEVC) over all sources (worst source; goal ≤ 296 kbit/s, SSIM ≥ H.264 Small, ladder ≥ 1×):\n\n` +
      '| setting | max kbit/s | min SSIM − H.264 Small | CPU ÷ H.264 Small (mean) | slowest ladder × real time |\n' +
      '|---|---|---|---|---|\n',
  );
  for (const setting of settings) {
    const rows = hevc.filter((r) => `${r.variant ? 'tried' : 'ladder'}: ${settingsOf(r)}` === setting);
    let maxRate = 0;
    let minDelta = Infinity;
    let slowest = Infinity;
    const cpuRatios: number[] = [];
    for (const row of rows) {
      const ladder = results.filter((r) => r.source.name === row.source.name && !r.variant);
      const small = ladder.find((r) => r.step.kind === 'small');
      maxRate = Math.max(maxRate, kbps(row.bytes, context.seconds));
      if (small) {
        minDelta = Math.min(minDelta, row.ssim - small.ssim);
        cpuRatios.push(row.cpuWallSeconds / small.cpuWallSeconds);
      }
      if (context.allRungs) slowest = Math.min(slowest, context.seconds / ladderSeconds(ladder, row));
    }
    const meanRatio = cpuRatios.length ? cpuRatios.reduce((a, b) => a + b, 0) / cpuRatios.length : NaN;
    write(
      `| ${setting} | ${maxRate} | ${Number.isFinite(minDelta) ? signed(minDelta) : '–'} | ${meanRatio.toFixed(2)} | ` +
        `${Number.isFinite(slowest) ? `${slowest.toFixed(2)}×` : '– (not every rung ran)'} |\n`,
    );
  }
}
