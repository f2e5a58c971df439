import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Tiny real media for the tests that run ffmpeg (transcode, posters), made by ffmpeg from its test sources: a test
 * pattern with moving noise (so the encoder has real work and bitrates mean something) and stereo noise for sound.
 */
export function makeClip(
  dir: string,
  name: string,
  options: { width: number; height: number; seconds: number; audio?: boolean; noise?: boolean },
): string {
  const path = join(dir, name);
  const audio = options.audio ?? true;
  const noise = options.noise ?? true;
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${options.width}x${options.height}:rate=25:duration=${options.seconds}`,
    ...(audio
      ? ['-f', 'lavfi', '-i', `anoisesrc=duration=${options.seconds}:amplitude=0.2,aformat=channel_layouts=stereo`]
      : []),
    ...(noise ? ['-vf', 'noise=alls=20:allf=t'] : []),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '18',
    '-pix_fmt',
    'yuv420p',
    ...(audio ? ['-c:a', 'aac', '-b:a', '128k'] : []),
    '-shortest',
    '-f',
    'mp4',
    path,
  ]);
  return path;
}

/** One still of the test pattern (a poster as an admin would upload it); the format follows the name. */
export function makePicture(dir: string, name: string, options: { width: number; height: number }): string {
  const path = join(dir, name);
  ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=${options.width}x${options.height}`, '-frames:v', '1', path]);
  return path;
}

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'ignore' });
}

/** A sound-only MP4 (an `ftyp` box, so it passes the upload sniff; no picture). */
export function makeAudioOnly(dir: string, name: string): string {
  const path = join(dir, name);
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'aac', '-f', 'mp4', path]);
  return path;
}

export interface StreamFacts {
  width: number;
  height: number;
  videoCodec: string;
  /** The track's sample entry (`hvc1`, `avc1`): the tag a player reads first. */
  videoTag: string;
  profile: string;
  audioCodec: string | null;
  audioChannels: number | null;
  bitsPerSecond: number;
  durationSeconds: number;
}

export function probeFile(path: string): StreamFacts {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path], {
    encoding: 'utf8',
  });
  const json = JSON.parse(out) as {
    format: { bit_rate: string; duration: string };
    streams: {
      codec_type: string;
      codec_name: string;
      codec_tag_string?: string;
      profile?: string;
      width?: number;
      height?: number;
      channels?: number;
    }[];
  };
  const video = json.streams.find((s) => s.codec_type === 'video')!;
  const audio = json.streams.find((s) => s.codec_type === 'audio');
  return {
    width: video.width!,
    height: video.height!,
    videoCodec: video.codec_name,
    videoTag: video.codec_tag_string ?? '',
    profile: video.profile ?? '',
    audioCodec: audio?.codec_name ?? null,
    audioChannels: audio?.channels ?? null,
    bitsPerSecond: Number(json.format.bit_rate),
    durationSeconds: Number(json.format.duration),
  };
}

/** When each keyframe of the video starts, in seconds (from the packets' K flag: no decoding). */
export function keyframeTimes(path: string): number[] {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', path],
    { encoding: 'utf8' },
  );
  return out
    .trim()
    .split('\n')
    .map((line) => line.split(','))
    .filter(([, flags]) => flags?.includes('K'))
    .map(([time]) => Number(time))
    .sort((a, b) => a - b);
}

/** The MP4's top-level boxes in order (`moov` before `mdat` = faststart: playable while it downloads). */
export function topLevelBoxes(path: string): string[] {
  const bytes = readFileSync(path);
  const boxes: string[] = [];
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    if (size === 0) size = bytes.length - at;
    if (size < 8) break;
    boxes.push(type);
    at += size;
  }
  return boxes;
}
