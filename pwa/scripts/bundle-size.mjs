// Landing-route JavaScript budget (docs/architecture.md: < 130 KB gzipped).
// Reads dist/.vite/manifest.json, follows the static imports of the index.html entry (what the landing page
// needs to render: the landing screen is part of the entry; every other route is a lazy chunk), and prints the
// total as the server sends it: the precompressed .gz and .br copies (scripts/precompress.mjs), or the file
// itself where the build wrote none.
// The budget holds for gzip, what a browser without brotli gets. Exits 1 at or over budget.
import { existsSync, readFileSync } from 'node:fs';
import { dist, readBuildManifest } from './build-manifest.mjs';

const BUDGET_KB = 130;
const { manifest, entryKey } = readBuildManifest('bundle-size');

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit(entryKey);

/** Bytes on the wire with a coding: its precompressed copy, or the file itself if the build wrote none. */
const sizeAs = (file, extension) => {
  const path = `${dist}${file}`;
  return readFileSync(existsSync(path + extension) ? path + extension : path).length;
};

const rows = [];
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  rows.push({ file, gz: sizeAs(file, '.gz'), br: sizeAs(file, '.br') });
}
rows.sort((a, b) => b.gz - a.gz);
const kb = (bytes) => (bytes / 1024).toFixed(2).padStart(8);
console.log(`${'gzip'.padStart(11)}${'brotli'.padStart(12)}`);
for (const { file, gz, br } of rows) console.log(`${kb(gz)} KB ${kb(br)} KB  ${file}`);
const totalGz = rows.reduce((sum, row) => sum + row.gz, 0) / 1024;
const totalBr = rows.reduce((sum, row) => sum + row.br, 0) / 1024;
console.log(
  `Landing route JavaScript: ${totalGz.toFixed(2)} KB gzipped, ${totalBr.toFixed(2)} KB brotli (budget ${BUDGET_KB} KB gzipped)`,
);
if (totalGz >= BUDGET_KB) {
  console.error('bundle-size: over budget.');
  process.exit(1);
}
