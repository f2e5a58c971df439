import { crc32, deflateSync } from 'node:zlib';

/** 8-bit-per-channel RGB pixels, row-major, no padding: `data.length === width * height * 3`. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG chunk: length, type, data, and a CRC-32 computed over type + data (PNG §5.3). */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes a truecolour (colour type 2), 8-bit, non-interlaced PNG. */
export function encodePng(image: RgbImage): Buffer {
  const { width, height, data } = image;
  if (data.length !== width * height * 3)
    throw new Error(`expected ${width * height * 3} RGB bytes, got ${data.length}`);

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  // compression method 0, filter method 0, interlace method 0 are the zero-filled bytes 10..12.

  // Every scanline is prefixed by its filter type; 0 (None) keeps it simple and deflate still
  // compresses gradients and flat fills well.
  const rowBytes = width * 3;
  const raw = Buffer.alloc(height * (rowBytes + 1));
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);

  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
