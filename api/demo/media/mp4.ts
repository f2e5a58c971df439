/**
 * Packs an H.264 stream into an MP4 file (ISO/IEC 14496-12 ISO BMFF, 14496-15 for avc1/avcC).
 * The movie box is written before the media data ("faststart") so a browser can start playing
 * while the rest downloads.
 */
import { createH264Stream, type H264Stream } from './h264.ts';
import type { RgbImage } from './png.ts';

export interface Mp4Options {
  width: number;
  height: number;
  fps: number;
}

/** Movie header timescale (ms); the track uses its own finer timescale so every frame lasts exactly 1/fps. */
const MOVIE_TIMESCALE = 1000;
const UINT32_MAX = 0xffffffff;

/** Encodes every frame as an I_PCM IDR picture and returns a complete, progressive-playable MP4. */
export function encodeMp4(frames: Iterable<RgbImage>, options: Mp4Options): Buffer {
  const { width, height, fps } = options;
  if (!(fps > 0)) throw new Error(`fps must be positive, got ${fps}`);
  const stream = createH264Stream(width, height, fps);

  // Each sample is one access unit: a 4-byte big-endian length, then the NAL unit (14496-15 §5.3.2
  // with lengthSizeMinusOne = 3). Parameter sets live only in avcC, as the 'avc1' entry requires.
  const samples: Buffer[] = [];
  for (const frame of frames) {
    const nal = stream.encodeFrame(frame);
    const sample = Buffer.alloc(4 + nal.length);
    sample.writeUInt32BE(nal.length, 0);
    sample.set(nal, 4);
    samples.push(sample);
  }
  if (samples.length === 0) throw new Error('a video needs at least one frame');

  // Track time: timescale = 1000 × fps ticks per second, 1000 ticks per frame, so fractional
  // rates like 29.97 stay exact enough and the duration is precisely frames / fps.
  const timing: Timing = {
    trackTimescale: Math.round(fps * 1000),
    sampleDelta: 1000,
    sampleCount: samples.length,
  };
  const sampleSizes = samples.map((sample) => sample.length);
  const mediaBytes = sampleSizes.reduce((sum, size) => sum + size, 0);

  const fileType = box(
    'ftyp',
    fourCc('isom'), // major_brand
    u32(0x200), // minor_version
    fourCc('isom'),
    fourCc('iso2'),
    fourCc('avc1'),
    fourCc('mp41'),
  );
  const mdatHeaderSize = mediaBytes + 8 > UINT32_MAX ? 16 : 8;
  // The chunk offset depends on the size of moov, which does not depend on the offset's value.
  const moovSize = movieBox(stream, options, timing, sampleSizes, 0, mediaBytes).length;
  const firstSampleOffset = fileType.length + moovSize + mdatHeaderSize;
  const movie = movieBox(stream, options, timing, sampleSizes, firstSampleOffset, mediaBytes);

  const mdatHeader =
    mdatHeaderSize === 8
      ? Buffer.concat([u32(8 + mediaBytes), fourCc('mdat')])
      : Buffer.concat([u32(1), fourCc('mdat'), u64(16 + mediaBytes)]); // 'largesize' form
  return Buffer.concat([fileType, movie, mdatHeader, ...samples]);
}

interface Timing {
  trackTimescale: number;
  sampleDelta: number;
  sampleCount: number;
}

function movieBox(
  stream: H264Stream,
  { width, height }: Mp4Options,
  timing: Timing,
  sampleSizes: number[],
  firstSampleOffset: number,
  mediaBytes: number,
): Buffer {
  const trackDuration = timing.sampleCount * timing.sampleDelta;
  const movieDuration = Math.round((trackDuration * MOVIE_TIMESCALE) / timing.trackTimescale);
  const needs64BitOffsets = firstSampleOffset + mediaBytes > UINT32_MAX;

  return box(
    'moov',
    fullBox(
      'mvhd', // MovieHeaderBox §8.2.2
      0,
      0,
      u32(0), // creation_time
      u32(0), // modification_time (fixed so output is deterministic)
      u32(MOVIE_TIMESCALE),
      u32(movieDuration),
      u32(0x00010000), // rate 1.0
      u16(0x0100), // volume 1.0
      zeros(2 + 8), // reserved
      IDENTITY_MATRIX,
      zeros(24), // pre_defined
      u32(2), // next_track_ID
    ),
    box(
      'trak',
      fullBox(
        'tkhd', // TrackHeaderBox §8.3.2; flags: enabled | in_movie | in_preview
        0,
        0x000007,
        u32(0),
        u32(0),
        u32(1), // track_ID
        u32(0), // reserved
        u32(movieDuration), // in the movie timescale
        zeros(8), // reserved
        u16(0), // layer
        u16(0), // alternate_group
        u16(0), // volume: 0 for visual tracks
        u16(0), // reserved
        IDENTITY_MATRIX,
        u32(width * 0x10000), // 16.16 fixed point
        u32(height * 0x10000),
      ),
      box(
        'mdia',
        fullBox(
          'mdhd', // MediaHeaderBox §8.4.2
          0,
          0,
          u32(0),
          u32(0),
          u32(timing.trackTimescale),
          u32(trackDuration),
          u16(0x55c4), // language 'und' as packed ISO-639-2/T
          u16(0), // pre_defined
        ),
        fullBox(
          'hdlr', // HandlerBox §8.4.3
          0,
          0,
          u32(0), // pre_defined
          fourCc('vide'),
          zeros(12), // reserved
          Buffer.from('VideoHandler\0', 'latin1'),
        ),
        box(
          'minf',
          fullBox('vmhd', 0, 1, u16(0), zeros(6)), // VideoMediaHeaderBox §12.1.2: graphicsmode copy
          box(
            'dinf',
            // DataReferenceBox §8.7.2 with one self-contained ('url ' flag 1) entry: media is in this file.
            fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)),
          ),
          box(
            'stbl',
            fullBox('stsd', 0, 0, u32(1), avc1SampleEntry(stream, width, height)),
            // TimeToSampleBox §8.6.1.2: every frame lasts sampleDelta.
            fullBox('stts', 0, 0, u32(1), u32(timing.sampleCount), u32(timing.sampleDelta)),
            // SyncSampleBox §8.6.2: every sample is an IDR, listed explicitly (1-based).
            fullBox('stss', 0, 0, u32(timing.sampleCount), u32s(sampleSizes.map((_, i) => i + 1))),
            // SampleToChunkBox §8.7.4: all samples in one chunk, sample description 1.
            fullBox('stsc', 0, 0, u32(1), u32(1), u32(timing.sampleCount), u32(1)),
            // SampleSizeBox §8.7.3.2: sample_size 0 means "sizes listed per sample".
            fullBox('stsz', 0, 0, u32(0), u32(timing.sampleCount), u32s(sampleSizes)),
            needs64BitOffsets
              ? fullBox('co64', 0, 0, u32(1), u64(firstSampleOffset)) // ChunkLargeOffsetBox §8.7.5
              : fullBox('stco', 0, 0, u32(1), u32(firstSampleOffset)), // ChunkOffsetBox §8.7.5
          ),
        ),
      ),
    ),
  );
}

/** VisualSampleEntry 'avc1' (14496-12 §12.1.3) carrying the AVCDecoderConfigurationRecord (14496-15 §5.3.3.1). */
function avc1SampleEntry(stream: H264Stream, width: number, height: number): Buffer {
  const compressorName = Buffer.alloc(32);
  const name = 'Filamu I_PCM';
  compressorName[0] = name.length; // Pascal string
  compressorName.write(name, 1, 'latin1');

  const avcC = box(
    'avcC',
    u8(1), // configurationVersion
    u8(stream.profileIdc), // AVCProfileIndication
    u8(stream.constraintFlags), // profile_compatibility
    u8(stream.levelIdc), // AVCLevelIndication
    u8(0xfc | 3), // reserved '111111' + lengthSizeMinusOne = 3 (4-byte NAL lengths)
    u8(0xe0 | 1), // reserved '111' + numOfSequenceParameterSets
    u16(stream.sps.length),
    Buffer.from(stream.sps),
    u8(1), // numOfPictureParameterSets
    u16(stream.pps.length),
    Buffer.from(stream.pps),
  );

  return box(
    'avc1',
    zeros(6), // reserved (SampleEntry)
    u16(1), // data_reference_index
    zeros(16), // pre_defined, reserved, pre_defined[3]
    u16(width),
    u16(height),
    u32(0x00480000), // horizresolution 72 dpi
    u32(0x00480000), // vertresolution 72 dpi
    u32(0), // reserved
    u16(1), // frame_count: one frame per sample
    compressorName,
    u16(0x0018), // depth: colour, no alpha
    u16(0xffff), // pre_defined = -1
    avcC,
  );
}

const IDENTITY_MATRIX = u32s([0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000]);

/** Box §4.2: 32-bit size (including the 8-byte header) then the four-character type. */
function box(type: string, ...payload: Uint8Array[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), fourCc(type), body]);
}

/** FullBox §4.2: a box whose payload starts with an 8-bit version and 24-bit flags. */
function fullBox(type: string, version: number, flags: number, ...payload: Uint8Array[]): Buffer {
  return box(type, u32(((version << 24) | flags) >>> 0), ...payload);
}

function fourCc(code: string): Buffer {
  if (code.length !== 4) throw new Error(`four-character code expected, got "${code}"`);
  return Buffer.from(code, 'latin1');
}

function u8(value: number): Buffer {
  return Buffer.from([value]);
}

function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
}

function u32(value: number): Buffer {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) throw new Error(`${value} does not fit in 32 bits`);
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

function u32s(values: readonly number[]): Buffer {
  return Buffer.concat(values.map(u32));
}

function u64(value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(value));
  return out;
}

function zeros(length: number): Buffer {
  return Buffer.alloc(length);
}
