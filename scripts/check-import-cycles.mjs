#!/usr/bin/env node
// Fails when any files import each other in a loop: static, `import type`, `export … from` and `import()` alike,
// since a loop of types still ties two modules' meanings together. Part of `pnpm check`.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE_ROOTS = [
  'api/src',
  'api/test',
  'api/demo',
  'api/bench',
  'pwa/src',
  'pwa/scripts',
  'shared/src',
  'e2e',
  'scripts',
];
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];
const SOURCE = /\.(ts|tsx|mjs|js)$/;

function listSources(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listSources(full, out);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveRelative(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const files = SOURCE_ROOTS.flatMap((dir) => listSources(path.join(root, dir)));
const edges = new Map();
for (const file of files) {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolveRelative(file, fileName);
    if (target && target !== file) targets.add(target);
  }
  edges.set(file, [...targets]);
}

// Tarjan's strongly connected components, iteratively (deep import chains would overflow recursion).
let counter = 0;
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const loops = [];
for (const start of edges.keys()) {
  if (index.has(start)) continue;
  const work = [[start, 0]];
  index.set(start, counter);
  low.set(start, counter++);
  stack.push(start);
  onStack.add(start);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, next] = frame;
    const targets = edges.get(node) ?? [];
    if (next < targets.length) {
      frame[1]++;
      const target = targets[next];
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        index.set(target, counter);
        low.set(target, counter++);
        stack.push(target);
        onStack.add(target);
        work.push([target, 0]);
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) loops.push(component);
    }
  }
}

const relative = (file) => path.relative(root, file);
if (loops.length === 0) {
  console.log(`import cycles: none among ${files.length} files`);
} else {
  console.error(`import cycles: ${loops.length} loop(s); break each by moving what both sides need into a leaf module`);
  for (const loop of loops) {
    const members = new Set(loop);
    console.error(`\n  loop of ${loop.length} files:`);
    for (const file of loop.sort())
      for (const target of edges.get(file).filter((t) => members.has(t)))
        console.error(`    ${relative(file)} -> ${relative(target)}`);
  }
  process.exit(1);
}
