import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import filamu from './eslint/feature-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'drizzle/**',
      'pwa/dev-dist/**',
      'pwa/dist-ssr/**',
      'lighthouse-reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['pwa/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Only server.ts reads the environment; everything else gets Config injected.
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/server.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from Config (api/src/config.ts).' },
      ],
    },
  },
  {
    // Regexes see request data here: one that backtracks or re-scans super-linearly lets a single long field
    // hold the event loop for seconds (docs/decisions/0103). Linear code or a length bound first.
    files: ['api/src/**/*.ts', 'shared/src/**/*.ts', 'pwa/src/**/*.{ts,tsx}'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // A feature reaches into another only through the files that one offers (eslint/feature-surfaces.js).
    // Import loops are found by scripts/check-import-cycles.mjs, which counts type-only imports too.
    files: ['api/src/**/*.ts', 'pwa/src/**/*.{ts,tsx}'],
    plugins: { filamu },
    rules: { 'filamu/feature-boundaries': 'error' },
  },
  {
    // deps.ts is the composition root's type: the wiring (app, bootstrap, server) and each feature's routes.ts,
    // which mounts the feature with the app's dependencies, name it; a verb names only the ports it uses.
    files: ['api/src/**/*.ts'],
    ignores: [
      'api/src/app.ts',
      'api/src/bootstrap.ts',
      'api/src/server.ts',
      'api/src/features/*/routes.ts',
      'api/src/features/*/admin-routes.ts',
      'api/src/**/*.test.ts',
      'api/src/**/*.testing.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)deps(\\.ts)?$',
              message:
                'Only the wiring names Deps: declare the ports this code uses (e.g. { database: Database; clock: Clock }).',
            },
          ],
        },
      ],
    },
  },
  {
    // IndexedDB through idb only in a feature's store.ts: one place per database for its name, version and upgrades.
    // Headless UI only inside the app's own primitives (components/ui), so every dialog, switch and tab looks and
    // behaves the same and an upgrade of the library touches one folder.
    files: ['pwa/src/**/*.{ts,tsx}'],
    ignores: ['pwa/src/**/store.ts', 'pwa/src/components/ui/**', 'pwa/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'idb', message: "Open IndexedDB in the feature's store.ts." },
            { name: '@headlessui/react', message: 'Use the primitives in pwa/src/components/ui (Modal, Tabs, …).' },
          ],
        },
      ],
    },
  },
  {
    files: ['pwa/src/**/store.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@headlessui/react', message: 'Use the primitives in pwa/src/components/ui.' }] },
      ],
    },
  },
  {
    files: ['pwa/src/components/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'idb', message: "Open IndexedDB in the feature's store.ts." }] },
      ],
    },
  },
);
