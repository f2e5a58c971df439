#!/usr/bin/env node
// Fails when any files import each other in a loop: static, `import type`, `export … from` and `import()` alike,
// since a loop of types still ties two modules' meanings together; when feature folders do (api/src/features,
// pwa/src/features, tests aside); and when a file imports a later layer than its own (scripts/layers.mjs, decision
// 0217). Part of `pnpm check`.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { layers } from './layers.mjs';

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

// Tarjan's strongly connected components, iteratively (deep import chains would overflow recursion): every group
// of more than one node that can reach each other, i.e. every loop.
function loopsOf(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const loops = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      const targets = graph.get(node) ?? [];
      if (next < targets.length) {
        frame[1]++;
        const target = targets[next];
        if (!graph.has(target)) continue;
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
  return loops;
}

const relative = (file) => path.relative(root, file).split(path.sep).join('/');
let failed = false;
const loops = loopsOf(edges);
if (loops.length === 0) {
  console.log(`import cycles: none among ${files.length} files`);
} else {
  failed = true;
  console.error(`import cycles: ${loops.length} loop(s); break each by moving what both sides need into a leaf module`);
  for (const loop of loops) {
    const members = new Set(loop);
    console.error(`\n  loop of ${loop.length} files:`);
    for (const file of loop.sort())
      for (const target of edges.get(file).filter((t) => members.has(t)))
        console.error(`    ${relative(file)} -> ${relative(target)}`);
  }
}

// The direction between folders (scripts/layers.mjs, decision 0217): tests and their helpers are exempt.
const TEST_FILE = /\.(test|testing)\.tsx?$/;
for (const [app, config] of Object.entries(layers)) {
  const appRoot = `${config.root}/`;
  const inApp = (file) => relative(file).startsWith(appRoot);
  const production = [...edges.keys()].filter((file) => inApp(file) && !TEST_FILE.test(file));
  const inside = (file) => relative(file).slice(appRoot.length);
  const featurePrefix = `${config.featureFolders}/`;
  const featureOf = (file) => (inside(file).startsWith(featurePrefix) ? inside(file).split('/')[1] : null);

  // (a) Feature folders that import each other in a loop, however long.
  const folders = new Map();
  const why = new Map();
  for (const file of production) {
    const from = featureOf(file);
    if (!from) continue;
    if (!folders.has(from)) folders.set(from, []);
    for (const target of edges.get(file)) {
      const to = inApp(target) && !TEST_FILE.test(target) ? featureOf(target) : null;
      if (!to || to === from) continue;
      if (!folders.get(from).includes(to)) folders.get(from).push(to);
      const key = `${from}>${to}`;
      if (!why.has(key)) why.set(key, []);
      why.get(key).push(`${relative(file)} -> ${relative(target)}`);
    }
  }
  const folderLoops = loopsOf(folders);
  if (folderLoops.length === 0) {
    console.log(`feature folder loops (${app}): none among ${folders.size} features`);
  } else {
    failed = true;
    console.error(`\nfeature folder loops (${app}): ${folderLoops.length}; each import below is part of one`);
    for (const loop of folderLoops) {
      const members = new Set(loop);
      console.error(`\n  loop of ${loop.length} features: ${loop.sort().join(', ')}`);
      for (const from of loop)
        for (const to of folders.get(from).filter((f) => members.has(f)))
          for (const line of why.get(`${from}>${to}`)) console.error(`    ${line}`);
    }
  }

  // (b) A file importing a later layer than its own.
  const named = new Set(config.layers.flatMap((layer) => layer.paths));
  const layerOf = (file) => {
    const rel = inside(file);
    const at = config.layers.findIndex((layer) =>
      layer.paths.some((p) =>
        p === `${config.featureFolders}/*`
          ? featureOf(file) !== null && !named.has(`${config.featureFolders}/${featureOf(file)}`)
          : rel === p || rel.startsWith(`${p}/`),
      ),
    );
    return at === -1 ? null : at;
  };
  const upward = [];
  const unplaced = new Set();
  for (const file of production) {
    const from = layerOf(file);
    if (from === null) {
      unplaced.add(relative(file));
      continue;
    }
    for (const target of edges.get(file)) {
      if (!inApp(target)) continue;
      const to = layerOf(target);
      if (to === null || to <= from) continue;
      if (config.allowed.some((rule) => rule.from.test(inside(file)) && inside(target) === rule.to)) continue;
      const names = `${config.layers[from].name} -> ${config.layers[to].name}`;
      upward.push(`    ${relative(file)} imports ${relative(target)} (${names})`);
    }
  }
  if (unplaced.size > 0) {
    failed = true;
    console.error(`\nlayers (${app}): files in no layer of scripts/layers.mjs; add their folder to one`);
    for (const file of unplaced) console.error(`    ${file}`);
  }
  if (upward.length === 0) {
    console.log(`layers (${app}): every import points down (${config.layers.map((l) => l.name).join(' <- ')})`);
  } else {
    failed = true;
    console.error(`\nlayers (${app}): ${upward.length} import(s) of a later layer; see scripts/layers.mjs`);
    for (const line of upward) console.error(line);
  }
}
if (failed) process.exit(1);
