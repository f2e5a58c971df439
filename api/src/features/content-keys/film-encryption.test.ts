import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptFilmRange } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../transcode/clips.testing.ts';
import { encryptFilmFile, newFilmNonce } from './film-encryption.ts';

/** Real media (decision 0229): what ffmpeg makes, encrypted as the server will, read back as the phone will. */

const dir = mkdtempSync(join(tmpdir(), 'filamu-encrypted-'));
// Fixed, so the encrypted bytes are the same on every run: random bytes are now and then taken by ffprobe for a raw
// stream (one run in sixty, H.263), and what is asserted is that ffmpeg finds no film in them, reproducibly.
const key = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const nonce = Buffer.from('f0e1d2c3b4a59687', 'hex');
let plainPath: string;
let encryptedPath: string;

beforeAll(async () => {
  plainPath = makeClip(dir, 'film.mp4', { width: 320, height: 240, seconds: 3 });
  encryptedPath = join(dir, 'film.filamu');
  await encryptFilmFile(plainPath, encryptedPath, key, nonce);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ffprobe(path: string): { format: string | null; streams: string[] } {
  const run = spawnSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path], {
    encoding: 'utf8',
  });
  if (run.status !== 0) return { format: null, streams: [] };
  const json = JSON.parse(run.stdout) as { format?: { format_name: string }; streams?: { codec_type: string }[] };
  return { format: json.format?.format_name ?? null, streams: (json.streams ?? []).map((s) => s.codec_type) };
}

/** Whether ffmpeg decodes the first picture of the file's first video stream. */
function decodesAPicture(path: string): boolean {
  const run = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-']);
  return run.status === 0;
}

const MP4 = { format: 'mov,mp4,m4a,3gp,3g2,mj2', streams: ['video', 'audio'] };

describe('a film encrypted per title', () => {
  it('is the same size as the film, and neither ffprobe nor ffmpeg finds a picture in it', () => {
    expect(statSync(encryptedPath).size).toBe(statSync(plainPath).size);
    expect(ffprobe(plainPath)).toEqual(MP4);
    expect(decodesAPicture(plainPath)).toBe(true);
    expect(ffprobe(encryptedPath).format).not.toBe(MP4.format);
    expect(decodesAPicture(encryptedPath)).toBe(false);
  });

  it('decrypts with its key, by ranges as the phone reads it, to the exact film ffmpeg plays', async () => {
    const plain = readFileSync(plainPath);
    const encrypted = readFileSync(encryptedPath);
    const webKey = await crypto.subtle.importKey('raw', key, 'AES-CTR', false, ['decrypt']);
    // The player's reads: the header, a seek to 80 %, the tail (an MP4's index may be at the end), odd boundaries.
    const at80 = Math.floor(plain.length * 0.8);
    const ranges: [number, number][] = [
      [0, 65_536],
      [at80, Math.min(plain.length, at80 + 100_000)],
      [plain.length - 4_093, plain.length],
      [7, 1_000_001 > plain.length ? plain.length : 1_000_001],
    ];
    for (const [start, end] of ranges) {
      const got = await decryptFilmRange(webKey, nonce, start, encrypted.subarray(start, end));
      expect(Buffer.from(got).equals(plain.subarray(start, end)), `bytes ${start}-${end}`).toBe(true);
    }
    const whole = await decryptFilmRange(webKey, nonce, 0, encrypted);
    const decryptedPath = join(dir, 'decrypted.mp4');
    writeFileSync(decryptedPath, whole);
    expect(ffprobe(decryptedPath)).toEqual(MP4);
    execFileSync('ffmpeg', ['-v', 'error', '-i', decryptedPath, '-f', 'null', '-']);
  });

  it('gives a different file for each nonce, so two files of one title never share a keystream', async () => {
    expect(newFilmNonce().equals(newFilmNonce())).toBe(false);
    const again = join(dir, 'again.filamu');
    await encryptFilmFile(plainPath, again, key, newFilmNonce());
    expect(readFileSync(again).equals(readFileSync(encryptedPath))).toBe(false);
  });
});
