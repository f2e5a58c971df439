/**
 * What a file really is, from its first bytes (security R24: check the container before a movie goes
 * live; thumbnails are raster images only — never SVG).
 */
export const SIGNATURE_BYTES = 16;

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** ISO BMFF (MP4, MOV, 3GP) starts with a box whose type is `ftyp`; Matroska/WebM with the EBML magic. */
export function isVideo(bytes: Uint8Array): boolean {
  const isoBmff = bytes.length >= 8 && ascii(bytes, 4, 8) === 'ftyp';
  const ebml = bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
  return isoBmff || ebml;
}

/** JPEG, PNG or WebP. */
export function isRasterImage(bytes: Uint8Array): boolean {
  const jpeg = bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const png = bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n';
  const webp = bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP';
  return jpeg || png || webp;
}
