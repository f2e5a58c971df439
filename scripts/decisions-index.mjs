#!/usr/bin/env node
// Writes docs/decisions/README.md: one row per decision record with its title and status, and fails (exit 1) when
// the records' status lines contradict each other. `--check` (run by `pnpm check`) also fails when the committed
// index differs from what the records say, so a new record, a changed title or a new status line cannot land
// without the index saying so.
//
// The status scheme (decision 0222). A record's head — the paragraphs right under its title — may hold these lines,
// each its own paragraph starting with the bold words:
//   **Status.** Accepted, 2026-11-24 (issue 18).   the record's own word; without this line a record is Accepted
//   **Supersedes 0004.**                            this record replaces 0004 whole
//   **Amends 0060, 0148.**                          this record changes part of 0060 and of 0148, which stay in force
//   **Superseded by 0060.** (why, optionally)       written in 0004 when 0060 replaces it
//   **Amended by 0194, 0197.**                      written in 0148 when 0194 and 0197 change part of it
// Both sides must say it: "Supersedes A" in B needs "Superseded by B" in A, and so on. The numbers are read only from
// inside the bold words, so a reason after them may name other records freely.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(root, 'docs', 'decisions');
const indexPath = join(folder, 'README.md');
const RECORD_FILE = /^(\d{4})-[a-z0-9-]+\.md$/;

/** Relation words, each with its counterpart: what the other record must say back. */
const RELATIONS = {
  Supersedes: 'Superseded by',
  'Superseded by': 'Supersedes',
  Amends: 'Amended by',
  'Amended by': 'Amends',
};
const RELATION_LINE = /^\*\*(Supersedes|Superseded by|Amends|Amended by) ([^*]+?)\.?\*\*/;
const STATUS_LINE = /^\*\*Status\.\*\*\s*([A-Za-z][A-Za-z ]*)/;
const OWN_STATUSES = new Set(['Accepted', 'Proposed', 'Rejected', 'Deprecated']);
/** A relation stated in the body instead of the head: the index would not see it. */
const STRAY_RELATION = /(?:^|\*\*)(?:Supersedes|Superseded by|Amends|Amended by) \d{4}/im;

function paragraphs(text) {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
}

/** Reads a record's head; `problems` collects what a reader of the index would be misled by. */
function parseRecord(file, text, problems) {
  const number = RECORD_FILE.exec(file)[1];
  const [headingBlock, ...rest] = paragraphs(text);
  const heading = headingBlock.split('\n', 1)[0].replace(/^#\s*/, '');
  const title = heading.startsWith(number) ? heading.slice(number.length).trim() : heading.trim();
  const record = { number, file, title, own: 'Accepted', relations: new Map() };
  let bodyAt = 0;
  for (const block of rest) {
    const status = STATUS_LINE.exec(block);
    const relation = RELATION_LINE.exec(block);
    if (status) {
      record.own = status[1].trim();
      if (!OWN_STATUSES.has(record.own)) {
        problems.push(`${file}: **Status.** "${record.own}" is not one of ${[...OWN_STATUSES].join(', ')}`);
      }
    } else if (relation) {
      const [, word, list] = relation;
      const numbers = list.split(/\s*(?:,|\band\b)\s*/);
      if (record.relations.has(word)) problems.push(`${file}: two "**${word} …**" lines; list every number in one`);
      if (!numbers.every((value) => /^\d{4}$/.test(value))) {
        problems.push(`${file}: "**${word} ${list}**" must list four-digit numbers, as "**${word} 0060, 0148.**"`);
      }
      record.relations.set(word, [...(record.relations.get(word) ?? []), ...numbers.filter((n) => /^\d{4}$/.test(n))]);
    } else break;
    bodyAt += 1;
  }
  // Quoted in backticks, a status line is an example, not a claim.
  const body = rest.slice(bodyAt).map((block) => block.replace(/(`+)[^`]*?\1/g, ''));
  const stray = body.find((block) => STRAY_RELATION.test(block));
  if (stray) {
    const line = STRAY_RELATION.exec(stray)[0].replace(/^\*\*/, '');
    problems.push(`${file}: "${line}" in the body; status lines go right under the title, as "**${line}.**"`);
  }
  return record;
}

function readRecords(problems) {
  return readdirSync(folder)
    .filter((name) => RECORD_FILE.test(name))
    .sort()
    .map((file) => parseRecord(file, readFileSync(join(folder, file), 'utf8'), problems));
}

/** Both sides of every relation must say it; a number must name a record that exists. */
function checkRelations(records, problems) {
  const byNumber = new Map(records.map((record) => [record.number, record]));
  for (const record of records) {
    for (const [word, numbers] of record.relations) {
      for (const other of numbers) {
        const target = byNumber.get(other);
        if (other === record.number) problems.push(`${record.file}: "${word} ${other}" names the record itself`);
        else if (!target) problems.push(`${record.file}: "${word} ${other}" names no record in docs/decisions`);
        else if (!(target.relations.get(RELATIONS[word]) ?? []).includes(record.number)) {
          problems.push(`${target.file}: needs "**${RELATIONS[word]} ${record.number}.**" (${record.file} says it)`);
        }
      }
    }
  }
}

function statusOf(record) {
  const list = (word) => [...new Set(record.relations.get(word) ?? [])].sort().join(', ');
  const parts = [record.relations.has('Superseded by') ? `Superseded by ${list('Superseded by')}` : record.own];
  if (record.relations.has('Amended by')) parts.push(`amended by ${list('Amended by')}`);
  if (record.relations.has('Supersedes')) parts.push(`supersedes ${list('Supersedes')}`);
  if (record.relations.has('Amends')) parts.push(`amends ${list('Amends')}`);
  return parts.join('; ');
}

const escapeCell = (text) => text.replaceAll('|', '\\|');

async function render(records) {
  const rows = records.map(
    (record) => `| [${record.number}](${record.file}) | ${escapeCell(record.title)} | ${statusOf(record)} |`,
  );
  const markdown = [
    '# Decisions',
    '',
    'One short record per decision the product left open or changed, numbered in the order they were taken. This index',
    'is generated by `node scripts/decisions-index.mjs` (and checked by `pnpm check`): do not edit it by hand.',
    '',
    "Status lines sit right under a record's title (decision 0222). A record that replaces an older one says",
    '`**Supersedes NNNN.**` and the older one `**Superseded by NNNN.**`; one that changes part of an older one says',
    '`**Amends NNNN.**` and the older one `**Amended by NNNN.**`. The check fails unless both sides say it. A record may',
    'state its own `**Status.**` (Accepted unless it says otherwise). Gaps in the numbering are numbers that were',
    'reserved and never used.',
    '',
    '| Record | Title | Status |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(indexPath)) ?? {};
  return prettier.format(markdown, { ...options, filepath: indexPath });
}

const problems = [];
const records = readRecords(problems);
checkRelations(records, problems);
const expected = await render(records);
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(indexPath, 'utf8');
  } catch {
    // No index yet: reported as out of date below.
  }
  if (current !== expected) {
    problems.push('docs/decisions/README.md is out of date: run `node scripts/decisions-index.mjs` and commit it.');
  }
} else {
  writeFileSync(indexPath, expected);
  console.log('decisions-index: wrote docs/decisions/README.md');
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`decisions-index: ${problem}`);
  process.exit(1);
}
if (process.argv.includes('--check')) {
  console.log(
    `decisions-index: docs/decisions/README.md lists all ${records.length} records; their status lines agree.`,
  );
}
