/**
 * `npx pnpm@10 bench:transcode` (decisions 0142 and 0254): encodes generated films with every step of
 * the rendition ladder (`encodeArgs` from `src/features/transcode/ladder.ts`, the same arguments the server runs) and
 * prints, per source and rendition, the speed as × real time on this machine, the rate and the size a 90-minute film
 * would have against its rendition's cap, and the SSIM against the source; for Small (HEVC), its SSIM beside the
 * H.264 Small's from the same source (the goal: at least as good, in 200 MB for 90 minutes); and per source, the whole
 * ladder's speed (the goal: ≥ 1× real time). The sources (film-like ones and the original testsrc2) are described in
 * `film-like-sources.ts` and cached in the temp dir.
 *
 * Speed is given twice: by the wall clock, and by ffmpeg's CPU time spread over this machine's cores (`-benchmark`),
 * which is what the machine does when nothing else runs on it (the wall clock counts every other process too).
 *
 * Settings, all optional:
 *   BENCH_SECONDS=60            the films' length (default 600: ten minutes);
 *   BENCH_SOURCES=camera,dark   which sources (default all: testsrc2-1080p, testsrc2, camera, faces, dark, grain);
 *   BENCH_RUNGS=small,small-hevc  which renditions (default the whole ladder; the ladder total needs all of them);
 *   BENCH_HEVC_VARIANTS=fast/28,medium/26/32  Small (HEVC) again with other x265 presets / CRFs / Opus kbit/s, for
 *                               choosing them: reported in their own table, beside the H.264 Small of the same source.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDITION_KINDS, type RenditionKind } from '@filamu/shared';
import { LADDER, ladderStep, type LadderStep } from '../src/features/transcode/ladder.ts';
import { SOURCE_NAMES, source, type SourceName } from './film-like-sources.ts';
import { CORES, encode, ffmpeg, type Encoded } from './transcode-encode.ts';
import { report } from './transcode-report.ts';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function listOf<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return [...allowed];
  const items = raw.split(',').map((s) => s.trim());
  const unknown = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (unknown.length || items.length > allowed.length) fail(`${name} takes some of: ${allowed.join(', ')}.`);
  return items as T[];
}

const X265_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower'];

/** `preset/crf[/opus kbit/s]` → the Small (HEVC) step with those settings. */
function hevcVariants(): LadderStep[] {
  const raw = process.env.BENCH_HEVC_VARIANTS;
  if (!raw) return [];
  const specs = raw.split(',').map((s) => s.trim());
  if (specs.length > 12) fail('BENCH_HEVC_VARIANTS takes at most 12 settings.');
  const base = ladderStep('small-hevc');
  return specs.map((spec) => {
    const [preset = '', crf = '', audio] = spec.split('/');
    const crfValue = Number(crf);
    const audioKbps = audio === undefined ? base.audioBitsPerSecond / 1000 : Number(audio);
    const valid =
      X265_PRESETS.includes(preset) &&
      Number.isInteger(crfValue) &&
      crfValue >= 18 &&
      crfValue <= 40 &&
      Number.isInteger(audioKbps) &&
      audioKbps >= 16 &&
      audioKbps <= 96;
    if (!valid) fail(`BENCH_HEVC_VARIANTS: “${spec}” is not preset/crf[/opus kbit/s] (e.g. medium/28/40).`);
    const audioBitsPerSecond = audioKbps * 1000;
    return {
      ...base,
      preset,
      crf: crfValue,
      audioBitsPerSecond,
      // The step's video cap is the total cap minus the audio: less audio leaves more for the picture.
      videoMaxBitsPerSecond: base.videoMaxBitsPerSecond + base.audioBitsPerSecond - audioBitsPerSecond,
    };
  });
}

const seconds = Number(process.env.BENCH_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds < 5 || seconds > 3600) fail('BENCH_SECONDS must be between 5 and 3600.');
const sourceNames = listOf<SourceName>('BENCH_SOURCES', SOURCE_NAMES);
const rungs = listOf<RenditionKind>('BENCH_RUNGS', RENDITION_KINDS);
const variants = hevcVariants();

const dir = join(tmpdir(), 'filamu-bench-transcode');
mkdirSync(dir, { recursive: true });

const results: Encoded[] = [];
for (const name of sourceNames) {
  const film = await source(name, seconds, dir, ffmpeg);
  const steps = [
    ...LADDER.filter((s) => rungs.includes(s.kind)).map((step) => ({ step, variant: false })),
    ...variants.map((step) => ({ step, variant: true })),
  ];
  for (const { step, variant } of steps) {
    const result = await encode(film, step, seconds, dir, variant);
    results.push(result);
    process.stdout.write(
      `${name} ${step.kind} ${step.preset}/crf ${step.crf}: ${result.wallSeconds.toFixed(1)} s ` +
        `(${result.cpuWallSeconds.toFixed(1)} s of CPU/core), SSIM ${result.ssim.toFixed(4)}\n`,
    );
  }
}

const failures = report(results, {
  seconds,
  cores: CORES,
  sources: sourceNames,
  allRungs: rungs.length === LADDER.length,
});
process.stdout.write(failures === 0 ? 'All goals met.\n' : `${failures} goal(s) missed.\n`);
