/**
 * `npx pnpm@10 bench:transcode` (decision 0142): encodes a generated 1080p and 720p film with every step of the
 * rendition ladder (`encodeArgs` from `src/features/transcode/ladder.ts`, the same arguments the server runs) and
 * prints, per rendition, the speed as × real time on this machine, the size against its cap and the SSIM against the
 * source. `BENCH_SECONDS=60` makes a quick run (default 600: a 10-minute film). Sources are cached in the temp dir.
 *
 * The sources are `testsrc2` with temporal noise (grain a real film has, so the encoder cannot coast) and pink noise
 * over a tone as sound, so the bitrates are those of real pictures rather than of flat colour.
 *
 * Speed is given twice: by the wall clock, and by ffmpeg's CPU time spread over this machine's cores (`-benchmark`),
 * which is what the machine does when nothing else runs on it (the wall clock counts every other process too).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDITION_TARGETS } from '@filamu/shared';
import { LADDER, encodeArgs } from '../src/features/transcode/ladder.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds < 5 || seconds > 3600) {
  process.stderr.write('BENCH_SECONDS must be between 5 and 3600.\n');
  process.exit(1);
}
/** SSIM is measured on every Nth frame (both sides stepped alike): the 1080p comparison would outlast the encodes. */
const SSIM_FRAME_STEP = 5;
const dir = join(tmpdir(), 'filamu-bench-transcode');
mkdirSync(dir, { recursive: true });

function run(args: string[]): Promise<{ stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ stderr }) : reject(new Error(`ffmpeg exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

async function source(height: 1080 | 720): Promise<string> {
  const width = (height * 16) / 9;
  const path = join(dir, `source-${height}p-${seconds}s.mp4`);
  if (existsSync(path)) return path;
  process.stdout.write(`generating a ${seconds} s ${height}p source in ${dir} …\n`);
  const partial = `${path}.partial.mp4`;
  await run([
    '-hide_banner',
    '-nostdin',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=25:duration=${seconds},noise=c0s=4:c0f=t:c1s=2:c1f=t:c2s=2:c2f=t`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.08:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${seconds}`,
    '-filter_complex',
    '[1:a][2:a]amix=inputs=2,aformat=channel_layouts=stereo[a]',
    '-map',
    '0:v',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    // About 7.5 Mbit/s at 1080p, like a film bought as a file: the noise keeps it from compressing to nothing.
    '-preset',
    'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '192k',
    partial,
  ]);
  renameSync(partial, path);
  return path;
}

async function ssim(sourcePath: string, renditionPath: string, height: number): Promise<number> {
  const width = (height * 16) / 9;
  const { stderr } = await run([
    '-hide_banner',
    '-nostdin',
    '-i',
    renditionPath,
    '-i',
    sourcePath,
    '-lavfi',
    `[0:v]framestep=${SSIM_FRAME_STEP},scale=${width}:${height}:flags=bicubic,format=yuv420p[r];` +
      `[1:v]framestep=${SSIM_FRAME_STEP},format=yuv420p[s];[r][s]ssim`,
    '-f',
    'null',
    '-',
  ]);
  const match = / All:([\d.]+)/.exec(stderr);
  if (!match?.[1]) throw new Error(`no SSIM in ffmpeg's output: ${stderr.slice(-500)}`);
  return Number(match[1]);
}

/** ffmpeg's `-benchmark` line: user and system CPU seconds of the whole run. */
function cpuSeconds(stderr: string): number {
  const match = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
  if (!match) throw new Error('no -benchmark line in ffmpeg’s output');
  return Number(match[1]) + Number(match[2]);
}

const cores = availableParallelism();

interface Row {
  source: string;
  kind: string;
  encodeSeconds: number;
  /** CPU seconds over the cores: the encode's time on an otherwise idle machine. */
  cpuWallSeconds: number;
  bytes: number;
  capBytes: number;
  ssim: number;
}

const rows: Row[] = [];
for (const height of [1080, 720] as const) {
  const sourcePath = await source(height);
  for (const step of LADDER) {
    const output = join(dir, `out-${height}p-${step.kind}.mp4`);
    rmSync(output, { force: true });
    const started = performance.now();
    const { stderr } = await run([
      '-benchmark',
      ...encodeArgs(step, { input: sourcePath, output, hasAudio: true, durationSeconds: seconds }),
    ]);
    const encodeSeconds = (performance.now() - started) / 1000;
    const cpuWallSeconds = cpuSeconds(stderr) / cores;
    const bytes = statSync(output).size;
    const capBytes = (RENDITION_TARGETS[step.kind].maxTotalBitsPerSecond * seconds) / 8;
    const score = await ssim(sourcePath, output, height);
    rows.push({ source: `${height}p`, kind: step.kind, encodeSeconds, cpuWallSeconds, bytes, capBytes, ssim: score });
    rmSync(output, { force: true });
    process.stdout.write(
      `${height}p ${step.kind}: ${encodeSeconds.toFixed(1)} s (${cpuWallSeconds.toFixed(1)} s of CPU/core)\n`,
    );
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const settings = LADDER.map((s) => `${s.kind} ${s.preset}/crf ${s.crf}/${s.profile}@${s.level}`).join(', ');
process.stdout.write(`\nTranscode bench: ${seconds} s film, ${cores} cores; ${settings}\n`);
process.stdout.write(
  '| source | rendition | × real time (idle machine) | × real time (wall clock) | size MB / cap MB | SSIM | goals |\n' +
    '|---|---|---|---|---|---|---|\n',
);
let failures = 0;
for (const row of rows) {
  const misses = [
    row.bytes > row.capBytes ? 'over cap' : '',
    row.kind === 'small' && row.ssim < 0.9 ? 'SSIM < 0.90' : '',
  ].filter(Boolean);
  failures += misses.length;
  process.stdout.write(
    `| ${row.source} | ${row.kind} | ${(seconds / row.cpuWallSeconds).toFixed(2)}× | ` +
      `${(seconds / row.encodeSeconds).toFixed(2)}× | ${mb(row.bytes)} / ${mb(row.capBytes)} ` +
      `(${Math.round((100 * row.bytes) / row.capBytes)} %) | ${row.ssim.toFixed(3)} | ${misses.join(', ') || 'ok'} |\n`,
  );
}
// The goals are judged on the idle-machine figure: a server encodes with the machine to itself.
for (const source of ['1080p', '720p']) {
  const ofSource = rows.filter((r) => r.source === source);
  const total = ofSource.reduce((sum, r) => sum + r.cpuWallSeconds, 0);
  const wall = ofSource.reduce((sum, r) => sum + r.encodeSeconds, 0);
  const small = ofSource.find((r) => r.kind === 'small')?.cpuWallSeconds ?? 0;
  const ladderOk = total <= seconds;
  const smallOk = small <= seconds / 5;
  failures += (ladderOk ? 0 : 1) + (smallOk ? 0 : 1);
  process.stdout.write(
    `${source}: whole ladder ${total.toFixed(0)} s for a ${seconds} s film = ${(seconds / total).toFixed(2)}× ` +
      `(${ladderOk ? 'ok' : 'goal ≥ 1×'}; wall clock ${(seconds / wall).toFixed(2)}×); ` +
      `Small ${(seconds / small).toFixed(2)}× (${smallOk ? 'ok' : 'goal ≥ 5×'})\n`,
  );
}
process.stdout.write(failures === 0 ? 'All goals met.\n' : `${failures} goal(s) missed.\n`);
