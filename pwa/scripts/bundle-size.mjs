// Landing-route JavaScript budget (design.md: < 130 KB gzipped).
// Reads dist/.vite/manifest.json, follows the static imports of the index.html entry (what the landing page
// needs to render: the landing screen is part of the entry; every other route is a lazy chunk)
// and prints the gzipped total. Exits 1 at or over budget.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 130;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestPath = `${dist}.vite/manifest.json`;

if (!existsSync(manifestPath)) {
  console.error(`bundle-size: ${manifestPath} not found — run the build first.`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
if (!entryKey) {
  console.error('bundle-size: no index.html entry in the manifest.');
  process.exit(1);
}

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit(entryKey);

let total = 0;
const rows = [];
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  const gz = gzipSync(readFileSync(`${dist}${file}`), { level: 9 }).length;
  total += gz;
  rows.push([file, gz]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, gz] of rows) console.log(`${(gz / 1024).toFixed(2).padStart(8)} KB  ${file}`);
const totalKb = total / 1024;
console.log(`Landing route JavaScript: ${totalKb.toFixed(2)} KB gzipped (budget ${BUDGET_KB} KB)`);
if (totalKb >= BUDGET_KB) {
  console.error('bundle-size: over budget.');
  process.exit(1);
}
