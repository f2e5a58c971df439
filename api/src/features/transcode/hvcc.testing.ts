import { readFileSync } from 'node:fs';

/**
 * The RFC 6381 codec string of an MP4's HEVC track, read from its `hvcC` box (ISO/IEC 14496-15 Annex E): what a phone
 * is asked about (`SMALL_HEVC_DECODING.videoCodec`) must be what the file says, not what the encoder was told.
 */
export function hevcCodecString(path: string): string {
  const file = readFileSync(path);
  const moov = childBox(file, 0, file.length, 'moov');
  for (const trak of childBoxes(file, moov.body, moov.end, 'trak')) {
    const stbl = descend(file, trak, ['mdia', 'minf', 'stbl']);
    if (!stbl) continue;
    const stsd = childBox(file, stbl.body, stbl.end, 'stsd');
    // stsd: version and flags (4), entry count (4), then the sample entries.
    for (const entry of boxesIn(file, stsd.body + 8, stsd.end)) {
      if (entry.type !== 'hvc1' && entry.type !== 'hev1') continue;
      // A VisualSampleEntry's fields take 78 bytes before its child boxes.
      const hvcC = childBox(file, entry.body + 78, entry.end, 'hvcC');
      return codecStringOf(entry.type, file.subarray(hvcC.body, hvcC.end));
    }
  }
  throw new Error(`${path} has no HEVC track`);
}

/** `hvc1.<space><profile>.<compatibility, bit-reversed, hex>.<tier><level>.<constraint bytes, trailing zeros dropped>`. */
function codecStringOf(sampleEntry: string, record: Buffer): string {
  const profileSpace = record[1]! >> 6;
  const tier = (record[1]! >> 5) & 1;
  const profile = record[1]! & 0x1f;
  const compatibility = record.readUInt32BE(2);
  let reversed = 0;
  for (let bit = 0; bit < 32; bit++) reversed = (reversed << 1) | ((compatibility >>> bit) & 1);
  const constraints = [...record.subarray(6, 12)];
  while (constraints.length > 0 && constraints.at(-1) === 0) constraints.pop();
  const level = record[12]!;
  return [
    sampleEntry,
    `${['', 'A', 'B', 'C'][profileSpace]}${profile}`,
    (reversed >>> 0).toString(16).toUpperCase(),
    `${tier ? 'H' : 'L'}${level}`,
    ...constraints.map((byte) => byte.toString(16).toUpperCase()),
  ].join('.');
}

interface Box {
  type: string;
  /** Where its contents start (after the size and type). */
  body: number;
  end: number;
}

function* boxesIn(file: Buffer, start: number, end: number): Generator<Box> {
  let at = start;
  while (at + 8 <= end) {
    let size = file.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(file.readBigUInt64BE(at + 8));
      header = 16;
    }
    if (size === 0) size = end - at;
    if (size < header || at + size > end) throw new Error(`a damaged box at byte ${at}`);
    yield { type: file.toString('latin1', at + 4, at + 8), body: at + header, end: at + size };
    at += size;
  }
}

const childBoxes = (file: Buffer, start: number, end: number, type: string) =>
  [...boxesIn(file, start, end)].filter((box) => box.type === type);

function childBox(file: Buffer, start: number, end: number, type: string): Box {
  const [box] = childBoxes(file, start, end, type);
  if (!box) throw new Error(`no ${type} box`);
  return box;
}

function descend(file: Buffer, from: Box, path: string[]): Box | null {
  let box: Box | undefined = from;
  for (const type of path) {
    box = childBoxes(file, box.body, box.end, type)[0];
    if (!box) return null;
  }
  return box;
}
