#!/usr/bin/env node
// Fails when the docs name something the repository does not have, so prose stays as true as the code it describes.
// Run by `pnpm docs:check`; prints every offending line. In README.md and every Markdown file under docs/:
//
// - a `pnpm <script>` in inline code or a fenced block (`npx pnpm@10 run x`, `pnpm --filter ./pwa size`) must be a
//   script of that package.json, or one of pnpm's own commands (install, exec, …);
// - a relative link `[text](path#anchor)` must reach a file or folder, and its anchor a heading of that file;
// - a repository path in inline code (`api/src/config.ts`, `scripts/*.mjs`, `docs/decisions/0017`) must exist, up
//   to its first glob or placeholder; paths git ignores (`pwa/dist`, `deploy/.env`) are build output and pass.
//
// Prose outside code is not read: "pnpm workspace" is English, `pnpm check` is a command.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** pnpm's own commands: a script of the same name would only run through `pnpm run`. */
const PNPM_COMMANDS = new Set(
  'add audit bin config dedupe deploy dlx env exec fetch i import init install install-test licenses link list ls outdated pack patch patch-commit prune publish rebuild remove root server setup store unlink update up why'.split(
    ' ',
  ),
);
/** Top-level folders whose paths the docs name in backticks. */
const REPO_DIRS = ['api', 'pwa', 'shared', 'e2e', 'scripts', 'docs', 'drizzle', 'deploy', 'eslint', '.ci'];
const REPO_PATH = new RegExp(`^(?:${REPO_DIRS.map((dir) => dir.replace('.', '\\.')).join('|')})/`);
/** Where a path stops being literal: globs, placeholders, ellipses, alternatives. */
const NOT_LITERAL = /[*{<[…|$]|NNNN|\.\.\./;

function markdownFiles() {
  const files = [join(root, 'README.md')];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files;
}

const scriptsCache = new Map();
function scriptsOf(packageDir) {
  if (!scriptsCache.has(packageDir)) {
    const file = join(root, packageDir, 'package.json');
    const scripts = existsSync(file) ? Object.keys(JSON.parse(readFileSync(file, 'utf8')).scripts ?? {}) : null;
    scriptsCache.set(packageDir, scripts && new Set(scripts));
  }
  return scriptsCache.get(packageDir);
}

/** Every `pnpm …` invocation in a piece of code: which package it addresses and the script it names. */
function pnpmProblems(code) {
  const problems = [];
  for (const match of code.matchAll(/\bpnpm(?:@[\d.]+)?((?:\s+[^\s;&|)`]+)*)/g)) {
    const words = match[1].trim().split(/\s+/).filter(Boolean);
    let packageDir = '.';
    let index = 0;
    while (index < words.length && words[index].startsWith('-')) {
      if (words[index] === '--filter' || words[index] === '-F') {
        packageDir = words[index + 1] ?? '.';
        index += 2;
      } else if (words[index] === '--yes' || words[index] === '--silent') index += 1;
      else return problems; // -r, -w, --dir …: many packages, not one script
    }
    if (words[index] === 'run') index += 1;
    const script = words[index];
    if (!script || !/^[a-z][\w:-]*$/.test(script) || PNPM_COMMANDS.has(script)) continue;
    const scripts = scriptsOf(packageDir);
    if (!scripts) problems.push(`\`pnpm --filter ${packageDir}\`: no package.json there`);
    else if (!scripts.has(script)) {
      const where = packageDir === '.' ? 'package.json' : `${packageDir}/package.json`;
      problems.push(`\`pnpm ${script}\`: no such script in ${where}`);
    }
  }
  return problems;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function linkProblem(file, target) {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return null; // https:, mailto:
  const [pathPart, anchor] = target.split('#');
  const path = pathPart === '' ? file : resolve(dirname(file), decodeURI(pathPart));
  if (!existsSync(path)) return `link to ${target}: no such file`;
  if (anchor && path.endsWith('.md') && !anchorsOf(path).has(anchor)) return `link to ${target}: no such heading`;
  return null;
}

/** The literal part of a path in backticks, or null when it is not one. */
function literalPath(token) {
  const bare = token.replace(/[.,;:)]+$/, '').replace(/:\d+$/, '');
  if (!REPO_PATH.test(bare)) return null;
  const cut = bare.search(NOT_LITERAL);
  const literal = cut === -1 ? bare : bare.slice(0, bare.lastIndexOf('/', cut) + 1);
  return literal.length > 0 ? literal : null;
}

function pathExists(path) {
  if (existsSync(join(root, path))) return true;
  const decision = /^docs\/decisions\/(\d{4})$/.exec(path.replace(/\/$/, ''));
  return decision !== null && readdirSync(join(root, 'docs', 'decisions')).some((name) => name.startsWith(decision[1]));
}

/** Paths git would ignore; each is asked also as a folder, since a build folder may not exist to say it is one. */
function gitIgnored(paths) {
  if (paths.length === 0) return new Set();
  const asked = paths.flatMap((path) => (path.endsWith('/') ? [path] : [path, `${path}/`]));
  try {
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], {
      cwd: root,
      input: asked.join('\n'),
      encoding: 'utf8',
    });
    const ignored = out.split('\n').filter(Boolean);
    return new Set([...ignored, ...ignored.map((path) => path.replace(/\/$/, ''))]);
  } catch (error) {
    // Exit 1: none of them is ignored.
    if (error.status === 1) return new Set();
    throw error;
  }
}

function checkFile(file) {
  const found = [];
  const missingPaths = [];
  let fence = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const where = `${relative(root, file)}:${index + 1}`;
      if (/^\s*```/.test(line)) {
        fence = !fence;
        return;
      }
      if (fence) {
        for (const problem of pnpmProblems(line)) found.push(`${where}: ${problem}`);
        return;
      }
      const spans = [...line.matchAll(/(`+)(.+?)\1/g)].map((match) => match[2]);
      for (const span of spans) {
        for (const problem of pnpmProblems(span)) found.push(`${where}: ${problem}`);
        for (const token of span.split(/\s+/)) {
          const path = literalPath(token);
          if (path && !pathExists(path)) missingPaths.push({ where, path });
        }
      }
      const prose = line.replace(/(`+).+?\1/g, '');
      for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const problem = linkProblem(file, match[1]);
        if (problem) found.push(`${where}: ${problem}`);
      }
    });
  const ignored = gitIgnored([...new Set(missingPaths.map(({ path }) => path))]);
  for (const { where, path } of missingPaths) {
    if (!ignored.has(path)) found.push(`${where}: \`${path}\` is not in the repository`);
  }
  return found;
}

const problems = markdownFiles().flatMap(checkFile);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`check-docs-facts: ${problems.length} claims name what the repository does not have.`);
  process.exit(1);
}
console.log('check-docs-facts: every script, link and path the docs name exists.');
