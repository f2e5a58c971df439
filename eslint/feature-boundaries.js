import path from 'node:path';
import { featureSurfaces } from './feature-surfaces.js';

/**
 * A feature folder may use another feature only through the files that feature lists as its surface in
 * `feature-surfaces.js`; everything else in a feature folder is its own business and can change without
 * anyone else noticing. Tests and test doubles (`*.test.ts`, `*.testing.ts`) may reach further to set up state.
 */
const FEATURE_FILE = /[\\/](api|pwa)[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/;
const TEST_FILE = /\.(test|testing)\.tsx?$/;

function featureOf(file) {
  const match = FEATURE_FILE.exec(file);
  if (!match) return null;
  const start = match.index + match[0].length;
  return { app: match[1], name: match[2], inside: file.slice(start).split(path.sep).join('/') };
}

export const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "A feature imports only another feature's declared surface." },
    schema: [],
    messages: {
      internal:
        "features/{{from}} imports features/{{to}}/{{file}}, which is not part of {{to}}'s surface. " +
        'Use a file {{to}} offers ({{offered}}), or add this one to eslint/feature-surfaces.js if it is meant to be shared.',
    },
  },
  create(context) {
    const importer = featureOf(context.filename);
    if (!importer || TEST_FILE.test(context.filename)) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = featureOf(path.resolve(path.dirname(context.filename), source) + path.sep);
      if (!target || target.app !== importer.app || target.name === importer.name) return;
      const file = target.inside.replace(/\/$/, '');
      const offered = featureSurfaces[importer.app]?.[target.name] ?? [];
      if (offered.includes(file)) return;
      context.report({
        node,
        messageId: 'internal',
        data: { from: importer.name, to: target.name, file, offered: offered.join(', ') || 'nothing yet' },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { 'feature-boundaries': featureBoundaries } };
