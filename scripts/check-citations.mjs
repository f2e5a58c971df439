#!/usr/bin/env node
// Fails when code, tests, scripts or docs cite a document that is not in this repository. Everything the code
// refers to lives in docs/: the product as built (docs/product, cited "product §N"), the reference notes
// (docs/reference: "security R24", "dpo-protocol P7", "download-platform §8"), docs/architecture.md and the
// decisions (docs/decisions). Run by `pnpm check`; prints every offending line.
//
//   node scripts/check-citations.mjs         check (exit 1 listing the offending lines)
//   node scripts/check-citations.mjs --fix   rewrite the known outside citations into repo citations, then check
//
// --fix only touches comments, docs and test names (that is where citations live); review its diff by eye.
// The outside names are assembled from pieces so that this file does not itself name them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const self = relative(root, fileURLToPath(import.meta.url));

const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  'dist',
  'dist-ssr',
  'dev-dist',
  'data',
  'coverage',
  'lighthouse-reports',
  'screenshots',
]);
const CHECKED_FILES = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|md|json|ya?ml|css|html|sh)$/;
const SKIPPED_FILES = new Set(['pnpm-lock.yaml', self]);

const FIRST_PRODUCT_DOC = ['S', 'P', 'E', 'C'].join('');
const BAR = ['security', 'bar'].join('-');
const DPO_NOTES = ['dpo', 'api3g'].join('-');
const DOWNLOAD_NOTES = ['download', 'manager'].join('-');
const OTHER_NOTES = [
  ['market', 'and', 'media'],
  ['code', 'style', 'anchors'],
].map((parts) => parts.join('-'));
const BRIEF = ['design', 'md'].join('\\.');
const re = (source, flags = '') => new RegExp(source, flags);

// Each pattern names an outside document; the message says where its content lives now.
const OUTSIDE_CITATIONS = [
  { pattern: re(`\\b${FIRST_PRODUCT_DOC}\\b`), instead: 'cite the product description: "product §N" (docs/product)' },
  { pattern: re(BAR), instead: 'cite "security Rn / Cn" (docs/reference/security.md)' },
  { pattern: re(DPO_NOTES), instead: 'cite "dpo-protocol Pn / §n" (docs/reference/dpo-protocol.md)' },
  {
    pattern: re(`${DOWNLOAD_NOTES}\\.md`),
    instead: 'cite "download-platform §n" (docs/reference/download-platform.md)',
  },
  { pattern: re(OTHER_NOTES.join('|')), instead: 'describe it in docs/ and cite that' },
  { pattern: re(`\\b${BRIEF}\\b`), instead: 'cite docs/architecture.md' },
  { pattern: /\.\.\/shared\/(?!src\/)|\/work\/shared\b/, instead: 'outside folders are not part of the repo' },
];

// --fix: the specific forms first, the bare word last. No apostrophes where test names (quoted strings) use them.
const REWRITES = [
  [re(`\`${FIRST_PRODUCT_DOC}\\.md\` §`, 'g'), 'product §'],
  [re(`${FIRST_PRODUCT_DOC} §Data model`, 'g'), 'product §3'],
  [re(`(^|\\.\\*{0,2} |\\/\\*\\* |\\/\\* |\\/\\/ )${FIRST_PRODUCT_DOC} ?§`, 'gm'), '$1Product §'],
  [re(`(^|\\.\\*{0,2} |\\/\\*\\* |\\/\\* |\\/\\/ )${FIRST_PRODUCT_DOC}'s`, 'gm'), "$1The product's"],
  [re(`\\b${FIRST_PRODUCT_DOC} ?§`, 'g'), 'product §'],
  [re(`\\bthe ${FIRST_PRODUCT_DOC} (texts|reason|messages)\\b`, 'g'), 'the product $1'],
  [re(`\\b([Tt])he ${FIRST_PRODUCT_DOC} (sentence|labels|toasts)\\b`, 'g'), "$1he product's $2"],
  [re(`\\b${FIRST_PRODUCT_DOC} (sentence|labels)\\b`, 'g'), "product's $1"],
  [re(`\\bThe ${FIRST_PRODUCT_DOC}'s\\b`, 'g'), "The product's"],
  [re(`\\bthe ${FIRST_PRODUCT_DOC}'s\\b`, 'g'), "the product's"],
  [re(`\\*\\*Consequences\\.\\*\\* ${FIRST_PRODUCT_DOC} toasts`, 'g'), "**Consequences.** The product's toasts"],
  [re(`\\b${FIRST_PRODUCT_DOC}'s\\b`, 'g'), "the product's"],
  [re(`\\bThe ${FIRST_PRODUCT_DOC}\\b`, 'g'), 'The product description'],
  [re(`\\bthe ${FIRST_PRODUCT_DOC}\\b`, 'g'), 'the product description'],
  [re(`\\(${FIRST_PRODUCT_DOC}: `, 'g'), '(product description: '],
  [re(`\\b${FIRST_PRODUCT_DOC} lists\\b`, 'g'), 'the product description lists'],
  [re(`\\b${FIRST_PRODUCT_DOC}\\b`, 'g'), 'the product description'],
  [re(BAR, 'g'), 'security'],
  [/\b([Ss])ecurity bar ([RC]\d)/g, '$1ecurity $2'],
  [re(`\`${DPO_NOTES}\\.md\``, 'g'), 'dpo-protocol'],
  [re(`${DPO_NOTES}\\.md`, 'g'), 'dpo-protocol'],
  [re(`(?:\\.\\.\\/)*shared\\/reference\\/${DOWNLOAD_NOTES}\\.md`, 'g'), 'docs/reference/download-platform.md'],
  [re(`\`reference\\/${DOWNLOAD_NOTES}\\.md\``, 'g'), '`docs/reference/download-platform.md`'],
  [re(`${DOWNLOAD_NOTES}\\.md`, 'g'), 'download-platform'],
  [re(`\\b${BRIEF}\\b`, 'g'), 'docs/architecture.md'],
];

function* files(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* files(join(folder, entry.name));
    } else if (CHECKED_FILES.test(entry.name)) {
      const path = relative(root, join(folder, entry.name));
      if (!SKIPPED_FILES.has(path)) yield path;
    }
  }
}

if (process.argv.includes('--fix')) {
  let changed = 0;
  for (const path of files(root)) {
    const before = readFileSync(join(root, path), 'utf8');
    const after = REWRITES.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), before);
    if (after === before) continue;
    changed += 1;
    writeFileSync(join(root, path), after);
    console.log(`check-citations: rewrote ${path}`);
  }
  console.log(
    `check-citations: ${changed} file(s) rewritten; review the diff, then run \`pnpm format\` and \`pnpm docs:index\`.`,
  );
}

const offences = [];
for (const path of files(root)) {
  const lines = readFileSync(join(root, path), 'utf8').split('\n');
  lines.forEach((line, index) => {
    for (const { pattern, instead } of OUTSIDE_CITATIONS) {
      if (pattern.test(line)) {
        offences.push(`${path}:${index + 1}: ${line.trim().slice(0, 160)}\n    → ${instead}`);
        break;
      }
    }
  });
}

if (offences.length > 0) {
  console.error(`check-citations: ${offences.length} line(s) cite documents outside the repo:\n`);
  console.error(offences.join('\n'));
  process.exit(1);
}
console.log('check-citations: every citation points into the repo.');
