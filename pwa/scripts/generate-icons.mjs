// Writes the PWA icons into public/ as PNG files (no image tooling needed: raw pixels + zlib).
// Run: node scripts/generate-icons.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const out = (name) => fileURLToPath(new URL(`../public/${name}`, import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x / size, y / size);
      const i = y * (size * 4 + 1) + 1 + x * 4;
      raw[i] = r;
      raw[i + 1] = g;
      raw[i + 2] = b;
      raw[i + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));
const TOP = [249, 115, 22]; // orange-500
const BOTTOM = [124, 45, 18]; // orange-900

/** Play triangle inside a ring; `scale` shrinks the artwork into the maskable safe zone. */
function artwork(x, y, scale, rounded) {
  const cx = (x - 0.5) / scale;
  const cy = (y - 0.5) / scale;
  if (rounded) {
    const r = 0.22; // corner radius in unit space
    const qx = Math.abs(x - 0.5) - (0.5 - r);
    const qy = Math.abs(y - 0.5) - (0.5 - r);
    if (qx > 0 && qy > 0 && Math.hypot(qx, qy) > r) return [0, 0, 0, 0];
  }
  const bg = mix(TOP, BOTTOM, (x + y) / 2);
  const d = Math.hypot(cx, cy);
  const ring = d > 0.33 && d < 0.38;
  // Triangle pointing right: vertices (-0.12,-0.18), (-0.12,0.18), (0.2,0)
  const inTriangle = cx > -0.12 && Math.abs(cy) < 0.18 * (1 - (cx + 0.12) / 0.32);
  if (ring || inTriangle) return [255, 247, 237, 255];
  return [...bg, 255];
}

writeFileSync(
  out('icon-192.png'),
  png(192, (x, y) => artwork(x, y, 1, true)),
);
writeFileSync(
  out('icon-512.png'),
  png(512, (x, y) => artwork(x, y, 1, true)),
);
writeFileSync(
  out('icon-maskable-512.png'),
  png(512, (x, y) => artwork(x, y, 0.8, false)),
);
writeFileSync(
  out('apple-touch-icon.png'),
  png(180, (x, y) => artwork(x, y, 0.9, false)),
);
console.log('icons written to public/');
