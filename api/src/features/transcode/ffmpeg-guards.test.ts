import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movies } from '../../db/schema.ts';
import { configuredTranscoder } from '../../bootstrap.ts';
import { MIB, runProcess } from '../../lib/ffmpeg.ts';
import { createTestApp, expectErrorEnvelope, loginAdmin, testConfig, type TestApp } from '../../../test/harness.ts';
import { makeClip } from './clips.testing.ts';
import { ladderStep } from './ladder.ts';
import { detectTranscoder, FrameTooLargeError, NotAVideoError, type Transcoder } from './transcoder.ts';

/**
 * What ffmpeg and ffprobe may open and spend (issue 15/22, decision 0206): only the upload's containers, only the
 * storage's protocols, no picture over 4K, and a memory and CPU-time bound on the child.
 */
const dir = mkdtempSync(join(tmpdir(), 'filamu-ffmpeg-guards-'));
let clip: string;
let huge: string;
let transcoder: Transcoder;
let server: Server;
let baseUrl: string;
const requested: string[] = [];

beforeAll(async () => {
  clip = makeClip(dir, 'clip.mp4', { width: 320, height: 240, seconds: 1 });
  huge = join(dir, 'huge.mp4');
  // One 8000×8000 frame: a few MB on disk, 96 MB per decoded picture.
  await runProcess('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=gray:size=8000x8000:rate=1', '-frames:v', '1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4', huge],
  ]);
  transcoder = (await detectTranscoder({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' })).transcoder!;
  // A loopback web server standing for S3 and for any address a hostile file might name; it counts what is asked.
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/clip.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(readFileSync(clip));
    } else if (req.url === '/movie.m3u8') {
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
      res.end(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${baseUrl}/segment.ts\n#EXT-X-ENDLIST\n`);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('what ffprobe may open', () => {
  it('reads an upload from a local file and from a presigned-style link', async () => {
    expect(await transcoder.probe(clip)).toMatchObject({ width: 320, height: 240 });
    expect(await transcoder.probe(`${baseUrl}/clip.mp4`)).toMatchObject({ width: 320, height: 240 });
  });

  it('refuses a concat list that points at another file', async () => {
    const list = join(dir, 'list.ffconcat');
    writeFileSync(list, 'ffconcat version 1.0\nfile clip.mp4\n');
    await expect(transcoder.probe(list)).rejects.toThrow(NotAVideoError);
  });

  it('refuses an HLS playlist behind a link without fetching what it names', async () => {
    requested.length = 0;
    await expect(transcoder.probe(`${baseUrl}/movie.m3u8`)).rejects.toThrow(NotAVideoError);
    expect(requested).toContain('/movie.m3u8');
    expect(requested).not.toContain('/segment.ts');
  });

  it('refuses a container the upload does not accept (AVI)', async () => {
    const avi = join(dir, 'clip.avi');
    await runProcess('ffmpeg', ['-v', 'error', '-i', clip, '-c', 'copy', '-f', 'avi', avi]);
    await expect(transcoder.probe(avi)).rejects.toThrow(NotAVideoError);
  });

  it('refuses a picture larger than 4K, with the reason in words', async () => {
    const refusal = transcoder.probe(huge);
    await expect(refusal).rejects.toThrow(FrameTooLargeError);
    await expect(refusal).rejects.toThrow(/8000×8000 pixels; the largest accepted is 4K/);
  });
});

describe('the bounds the child runs under', () => {
  it('runs a bounded child under its memory and CPU-time limits', async () => {
    const run = await runProcess('sh', ['-c', 'ulimit -v; ulimit -t'], {
      limits: { memoryBytes: 512 * MIB, cpuSeconds: 30 },
    });
    expect(run.stdout.trim().split('\n')).toEqual([String(512 * 1024), '30']);
  });

  it('gives ffprobe and ffmpeg their bounds and pinned inputs', async () => {
    // Stand-ins that say what they were started with.
    const log = join(dir, 'calls.log');
    const fake = join(dir, 'fake-ffmpeg.sh');
    writeFileSync(
      fake,
      // It answers the start-up checks (`-version`, and `-encoders`: an empty list, so no HEVC Small) and logs the rest.
      `#!/bin/sh\n[ "$1" = "-version" ] && exit 0\n[ "$2" = "-encoders" ] && exit 0\necho "$(ulimit -v) $(ulimit -t) $*" >> ${log}\nexit 1\n`,
    );
    chmodSync(fake, 0o755);
    const bounded = (await detectTranscoder({ ffmpeg: fake, ffprobe: fake })).transcoder!;
    await expect(bounded.probe('/srv/objects/movie.mp4')).rejects.toThrow(NotAVideoError);
    await expect(
      bounded.encode(
        ladderStep('small'),
        {
          input: 'https://bucket.example/movie.mp4?X-Amz-Signature=x',
          output: join(dir, 'out.mp4'),
          hasAudio: true,
          durationSeconds: 600,
        },
        () => {},
        new AbortController().signal,
      ),
    ).rejects.toThrow();
    const [probe, encode] = readFileSync(log, 'utf8').trim().split('\n');
    expect(probe).toMatch(/^1048576 30 /);
    expect(probe).toContain('-protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2,matroska,webm');
    // 2 GiB; the CPU time is the encode's wall-clock budget (4× the movie) on each of its threads.
    expect(encode).toMatch(/^2097152 \d+ /);
    expect(Number(encode!.split(' ')[1]) % 2400).toBe(0);
    expect(encode).toContain('-protocol_whitelist http,https,tcp,tls -format_whitelist mov,');
    expect(encode).toContain(`-max_pixels ${4096 * 2304}`);
  });
});

describe('saving a movie larger than 4K', () => {
  let t: TestApp;
  beforeAll(async () => {
    const transcode = await configuredTranscoder(testConfig(), pino({ level: 'silent' }));
    t = await createTestApp('pglite', { transcode });
  });
  afterAll(() => t.close());

  it('is refused before any encode, with the reason for the admin', async () => {
    const token = await loginAdmin(t);
    const bytes = readFileSync(huge);
    const key = `movies/${randomUUID()}.mp4`;
    await t.deps.storage.put(key, bytes, 'video/mp4');
    const res = await t.request('POST', '/api/admin/movies', {
      token,
      body: {
        title: 'Too big',
        category: 'English',
        rating: 'all',
        vj: 'VJ Test',
        movieS3Key: key,
        size: bytes.length,
      },
    });
    expectErrorEnvelope(res, 400, 'bad_request', /8000×8000 pixels; the largest accepted is 4K.*Export it at 1080p/);
    expect(await t.deps.database.db.select().from(movies)).toHaveLength(0);
  });
});
