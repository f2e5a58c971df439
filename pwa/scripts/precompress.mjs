// Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) next to every compressible file of dist/,
// so the server sends the smallest form a browser accepts without compressing anything per request
// (api/src/http/static-app.ts; decision 0070). Runs after `vite build`, when the service worker exists too.
// Skipped: images, fonts and video (already compressed), files under 1 KB (the headers cost more than the saving),
// a coding that saves less than a tenth, and dot-folders such as .vite/ (the server never serves them).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|webmanifest|json|txt|xml)$/;
const MIN_BYTES = 1024;
/** A coding is kept only if it is at most this fraction of the original. */
const MAX_RATIO = 0.9;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

async function precompress(path) {
  const original = await readFile(path);
  const codings = [
    [
      '.br',
      await brotli(original, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
        },
      }),
    ],
    ['.gz', await gzipAsync(original, { level: constants.Z_BEST_COMPRESSION })],
  ];
  const written = {};
  for (const [extension, bytes] of codings) {
    if (bytes.length > original.length * MAX_RATIO) continue;
    await writeFile(path + extension, bytes);
    written[extension] = bytes.length;
  }
  return { size: original.length, written };
}

const candidates = [];
for await (const path of filesUnder(dist)) {
  if (COMPRESSIBLE.test(path) && (await stat(path)).size >= MIN_BYTES) candidates.push(path);
}
const results = await Promise.all(candidates.map(precompress));

const total = { size: 0, '.br': 0, '.gz': 0, files: 0 };
for (const [index, { size, written }] of results.entries()) {
  if (!written['.br'] && !written['.gz']) continue;
  total.files += 1;
  total.size += size;
  total['.br'] += written['.br'] ?? size;
  total['.gz'] += written['.gz'] ?? size;
  if (!written['.br'] || !written['.gz'])
    console.log(`precompress: only ${Object.keys(written)} for ${relative(dist, candidates[index])}`);
}
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(
  `precompress: ${total.files} files, ${kb(total.size)} → ${kb(total['.br'])} brotli, ${kb(total['.gz'])} gzip`,
);
