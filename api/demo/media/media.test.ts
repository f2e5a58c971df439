import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BitWriter } from './bits.ts';
import { createH264Stream, escapeEmulation } from './h264.ts';
import { generateDemoMovie, generateDemoThumbnail, hexToRgb, renderDemoMovieFrames, type Rgb } from './index.ts';
import { encodeMp4 } from './mp4.ts';
import { encodePng } from './png.ts';
import { createImage, drawText, fillRect, measureText } from './raster.ts';

const PALETTE: readonly [Rgb, Rgb] = [hexToRgb('#1d3557'), hexToRgb('#e63946')];

// ---------- helpers: tiny PNG chunk reader, ISO BMFF box walker, Exp-Golomb reader ----------

interface PngChunk {
  type: string;
  data: Buffer;
  crc: number;
  crcInput: Buffer;
}

function readPngChunks(png: Buffer): PngChunk[] {
  const chunks: PngChunk[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    chunks.push({
      type: png.toString('latin1', at + 4, at + 8),
      data: png.subarray(at + 8, at + 8 + length),
      crc: png.readUInt32BE(at + 8 + length),
      crcInput: png.subarray(at + 4, at + 8 + length),
    });
    at += 12 + length;
  }
  return chunks;
}

interface Box {
  type: string;
  start: number; // offset of the box header in the file
  payload: Buffer;
  children: Box[];
}

/** Boxes that contain only other boxes (plus, for some, a fixed prefix to skip). */
const CONTAINER_PREFIX: Record<string, number> = {
  moov: 0,
  trak: 0,
  mdia: 0,
  minf: 0,
  dinf: 0,
  stbl: 0,
  dref: 8, // FullBox header + entry_count
  stsd: 8,
  avc1: 78, // VisualSampleEntry fields before its child boxes
};

function walkBoxes(file: Buffer, from = 0, to = file.length): Box[] {
  const boxes: Box[] = [];
  for (let at = from; at < to;) {
    let size = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      size = Number(file.readBigUInt64BE(at + 8));
      header = 16;
    }
    expect(size).toBeGreaterThanOrEqual(header);
    expect(at + size).toBeLessThanOrEqual(to);
    const payload = file.subarray(at + header, at + size);
    const prefix = CONTAINER_PREFIX[type];
    const children = prefix === undefined ? [] : walkBoxes(file, at + header + prefix, at + size);
    boxes.push({ type, start: at, payload, children });
    at += size;
  }
  return boxes;
}

function find(boxes: Box[], path: string): Box {
  const [head, ...rest] = path.split('/');
  const box = boxes.find((candidate) => candidate.type === head);
  if (!box) throw new Error(`box ${head} not found`);
  return rest.length ? find(box.children, rest.join('/')) : box;
}

class BitReader {
  private position = 0;
  constructor(private readonly bytes: Uint8Array) {}
  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++, this.position++) {
      value = value * 2 + ((this.bytes[this.position >> 3]! >> (7 - (this.position & 7))) & 1);
    }
    return value;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) zeros++;
    return 2 ** zeros - 1 + this.u(zeros);
  }
}

/** Removes emulation_prevention_three_bytes (inverse of §7.4.1.1). */
function unescape(nal: Uint8Array): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

function solidImage(width: number, height: number, colour: Rgb) {
  const image = createImage(width, height);
  fillRect(image, 0, 0, width, height, colour);
  return image;
}

// ---------- PNG ----------

describe('encodePng', () => {
  const image = createImage(7, 5);
  fillRect(image, 1, 1, 3, 2, [255, 128, 0]);
  const png = encodePng(image);

  it('starts with the PNG signature and an IHDR describing 8-bit truecolour', () => {
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [ihdr] = readPngChunks(png);
    expect(ihdr?.type).toBe('IHDR');
    expect(ihdr?.data.length).toBe(13);
    expect(ihdr?.data.readUInt32BE(0)).toBe(7);
    expect(ihdr?.data.readUInt32BE(4)).toBe(5);
    expect([...ihdr!.data.subarray(8)]).toEqual([8, 2, 0, 0, 0]); // depth, colour type, compression, filter, interlace
  });

  it('has valid CRCs on every chunk and ends with IEND', () => {
    const chunks = readPngChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    for (const c of chunks) expect(c.crc).toBe(crc32(c.crcInput));
    expect(chunks.at(-1)?.crc).toBe(0xae426082); // the well-known CRC of an empty IEND
  });

  it('stores filter-type-0 scanlines that inflate back to the pixels', () => {
    const idat = Buffer.concat(
      readPngChunks(png)
        .filter((c) => c.type === 'IDAT')
        .map((c) => c.data),
    );
    const raw = inflateSync(idat);
    expect(raw.length).toBe(5 * (1 + 3 * 7));
    for (let y = 0; y < 5; y++) {
      expect(raw[y * 22]).toBe(0);
      expect([...raw.subarray(y * 22 + 1, (y + 1) * 22)]).toEqual([...image.data.subarray(y * 21, (y + 1) * 21)]);
    }
  });

  it('rejects pixel buffers of the wrong size', () => {
    expect(() => encodePng({ width: 2, height: 2, data: new Uint8Array(11) })).toThrow();
  });
});

// ---------- raster ----------

describe('raster', () => {
  it('measures and draws 5x7 glyphs at integer scale', () => {
    expect(measureText('AB', 2)).toBe((2 * 6 - 1) * 2);
    const image = createImage(20, 20);
    drawText(image, 'I', 0, 0, 2, [255, 255, 255]);
    // 'I' has a full-height stem in its middle column (column 2 → pixels 4..5).
    for (let y = 0; y < 14; y++) expect(image.data[(y * 20 + 4) * 3]).toBe(255);
    expect(image.data[(14 * 20 + 4) * 3]).toBe(0);
  });

  it('clips rectangles to the image', () => {
    const image = createImage(4, 4);
    fillRect(image, -10, 2, 100, 100, [9, 9, 9]);
    expect(image.data.filter((v) => v === 9).length).toBe(4 * 2 * 3);
  });
});

// ---------- H.264 bitstream pieces ----------

describe('H.264 syntax', () => {
  it('writes Exp-Golomb codes (§9.1)', () => {
    const bits = new BitWriter().ue(0).ue(1).ue(25).se(-1).se(1).trailingBits().toBytes();
    // 1 | 010 | 000011010 | 011 | 010 | 1 + padding
    const expected = '1' + '010' + '000011010' + '011' + '010' + '1';
    const written = [...bits].map((b) => b.toString(2).padStart(8, '0')).join('');
    expect(written.startsWith(expected)).toBe(true);
    expect(written.slice(expected.length)).toMatch(/^0*$/);
  });

  it('inserts emulation prevention bytes (§7.4.1.1)', () => {
    expect([...escapeEmulation(Uint8Array.from([0, 0, 1]))]).toEqual([0, 0, 3, 1]);
    expect([...escapeEmulation(Uint8Array.from([0, 0, 0, 0]))]).toEqual([0, 0, 3, 0, 0]);
    expect([...escapeEmulation(Uint8Array.from([0, 0, 4, 0, 0, 2]))]).toEqual([0, 0, 4, 0, 0, 3, 2]);
  });

  it('codes a solid frame as I_PCM samples with BT.601 limited-range values', () => {
    const stream = createH264Stream(32, 16, 10);
    const nal = stream.encodeFrame(solidImage(32, 16, [255, 255, 255]));
    expect(nal[0]! & 0x1f).toBe(5); // IDR slice
    const rbsp = unescape(nal.subarray(1));
    const white = Buffer.concat([Buffer.alloc(256, 235), Buffer.alloc(128, 128)]);
    const first = rbsp.indexOf(white);
    expect(first).toBeGreaterThan(0);
    expect(rbsp.indexOf(white, first + 384)).toBeGreaterThan(first); // second macroblock
  });
});

// ---------- MP4 ----------

describe('encodeMp4', () => {
  const fps = 8;
  const frameCount = 12;
  const width = 192;
  const height = 108;
  const frames = Array.from({ length: frameCount }, (_, i) => solidImage(width, height, [i * 20, 100, 200 - i * 10]));
  const mp4 = encodeMp4(frames, { width, height, fps });
  const boxes = walkBoxes(mp4);

  it('has ftyp, then moov before mdat (faststart)', () => {
    expect(boxes.map((b) => b.type)).toEqual(['ftyp', 'moov', 'mdat']);
    const ftyp = find(boxes, 'ftyp').payload;
    expect(ftyp.toString('latin1', 0, 4)).toBe('isom');
    expect(ftyp.toString('latin1', 8)).toContain('avc1');
  });

  it('declares a duration of frames / fps in both movie and media headers', () => {
    const mvhd = find(boxes, 'moov/mvhd').payload;
    expect(mvhd.readUInt32BE(16) / mvhd.readUInt32BE(12)).toBeCloseTo(frameCount / fps, 3);
    const mdhd = find(boxes, 'moov/trak/mdia/mdhd').payload;
    expect(mdhd.readUInt32BE(16) / mdhd.readUInt32BE(12)).toBe(frameCount / fps);
    const stts = find(boxes, 'moov/trak/mdia/minf/stbl/stts').payload;
    expect(stts.readUInt32BE(4)).toBe(1);
    expect(stts.readUInt32BE(8)).toBe(frameCount);
    expect((stts.readUInt32BE(8) * stts.readUInt32BE(12)) / mdhd.readUInt32BE(12)).toBe(frameCount / fps);
    expect(find(boxes, 'moov/trak/mdia/hdlr').payload.toString('latin1', 8, 12)).toBe('vide');
    const tkhd = find(boxes, 'moov/trak/tkhd').payload;
    expect([tkhd.readUInt32BE(76) / 65536, tkhd.readUInt32BE(80) / 65536]).toEqual([width, height]);
  });

  it('carries SPS and PPS in avcC, describing a 192x108 Constrained Baseline stream', () => {
    const avcC = find(boxes, 'moov/trak/mdia/minf/stbl/stsd/avc1/avcC').payload;
    expect(avcC[0]).toBe(1); // configurationVersion
    expect(avcC[1]).toBe(66); // Baseline
    expect(avcC[2]! & 0x40).toBe(0x40); // constraint_set1_flag → Constrained Baseline
    expect(avcC[4]! & 3).toBe(3); // 4-byte NAL length prefixes
    expect(avcC[5]! & 0x1f).toBe(1);
    const spsLength = avcC.readUInt16BE(6);
    const sps = avcC.subarray(8, 8 + spsLength);
    expect(sps[0]! & 0x1f).toBe(7);
    expect(avcC[8 + spsLength]).toBe(1);
    const pps = avcC.subarray(11 + spsLength, 11 + spsLength + avcC.readUInt16BE(9 + spsLength));
    expect(pps[0]! & 0x1f).toBe(8);

    // Parse the SPS far enough to recover the picture size (§7.3.2.1.1, §7.4.2.1.1).
    const r = new BitReader(unescape(sps.subarray(1)));
    expect([r.u(8), r.u(8), r.u(8)]).toEqual([66, avcC[2], avcC[3]]);
    r.ue(); // seq_parameter_set_id
    r.ue(); // log2_max_frame_num_minus4
    expect(r.ue()).toBe(2); // pic_order_cnt_type
    r.ue(); // max_num_ref_frames
    r.u(1); // gaps_in_frame_num_value_allowed_flag
    const widthInMbs = r.ue() + 1;
    const heightInMbs = r.ue() + 1;
    expect(r.u(1)).toBe(1); // frame_mbs_only_flag
    r.u(1); // direct_8x8_inference_flag
    expect(r.u(1)).toBe(1); // frame_cropping_flag
    const [left, right, top, bottom] = [r.ue(), r.ue(), r.ue(), r.ue()];
    expect(widthInMbs * 16 - 2 * (left + right)).toBe(width);
    expect(heightInMbs * 16 - 2 * (top + bottom)).toBe(height);
  });

  it('lists one sync sample per frame whose sizes exactly fill mdat', () => {
    const stbl = 'moov/trak/mdia/minf/stbl';
    const stsz = find(boxes, `${stbl}/stsz`).payload;
    expect(stsz.readUInt32BE(4)).toBe(0); // sizes listed per sample
    expect(stsz.readUInt32BE(8)).toBe(frameCount);
    const sizes = Array.from({ length: frameCount }, (_, i) => stsz.readUInt32BE(12 + 4 * i));
    const mdat = find(boxes, 'mdat');
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(mdat.payload.length);

    expect(find(boxes, `${stbl}/stss`).payload.readUInt32BE(4)).toBe(frameCount);
    const stsc = find(boxes, `${stbl}/stsc`).payload;
    expect([stsc.readUInt32BE(4), stsc.readUInt32BE(8), stsc.readUInt32BE(12)]).toEqual([1, 1, frameCount]);
    const stco = find(boxes, `${stbl}/stco`).payload;
    expect(stco.readUInt32BE(4)).toBe(1);
    const offset = stco.readUInt32BE(8);
    expect(offset).toBe(mdat.start + 8);

    // Every sample is one length-prefixed IDR NAL unit.
    let at = offset;
    for (const size of sizes) {
      expect(mp4.readUInt32BE(at)).toBe(size - 4);
      expect(mp4[at + 4]! & 0x1f).toBe(5);
      at += size;
    }
    expect(at).toBe(mp4.length);
  });

  it('rejects frames of the wrong size and empty input', () => {
    expect(() => encodeMp4([createImage(16, 16)], { width, height, fps })).toThrow();
    expect(() => encodeMp4([], { width, height, fps })).toThrow();
  });
});

// ---------- demo API ----------

describe('generateDemoMovie / generateDemoThumbnail', () => {
  const options = { title: 'Sebo Omulogo', subtitle: 'VJ Junior', palette: PALETTE, seconds: 2, fps: 8 };

  it('returns an MP4 with the requested frame count and is deterministic', () => {
    const movie = generateDemoMovie(options);
    expect(movie.contentType).toBe('video/mp4');
    expect(movie.extension).toBe('mp4');
    const stsz = find(walkBoxes(movie.bytes), 'moov/trak/mdia/minf/stbl/stsz').payload;
    expect(stsz.readUInt32BE(8)).toBe(16);
    expect(generateDemoMovie(options).bytes.equals(movie.bytes)).toBe(true);
  });

  it('animates: consecutive frames differ', () => {
    const [first, second] = renderDemoMovieFrames(options);
    expect(first && second && Buffer.from(first.data).equals(Buffer.from(second.data))).toBe(false);
  });

  it('renders a 480x270 PNG poster by default', () => {
    const png = generateDemoThumbnail(options);
    const ihdr = readPngChunks(png)[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)]).toEqual([480, 270]);
    expect(generateDemoThumbnail(options).equals(png)).toBe(true);
    expect(generateDemoThumbnail({ ...options, title: 'Other' }).equals(png)).toBe(false);
  });
});
