/**
 * Which way the code depends (docs/architecture.md "Layers", decision 0217). Each app's folders are listed in
 * layers, lowest first: a file may import files of its own layer and of the layers before it, never of a later
 * one. Feature folders must not import each other in a loop either. `scripts/check-import-cycles.mjs` enforces
 * both (part of `pnpm check`); tests (`*.test.ts(x)`) and their helpers (`*.testing.ts(x)`) are exempt, as they
 * are from the feature boundaries (eslint/feature-boundaries.js): they reach across to set up state.
 *
 * A path is a file or a folder relative to the app's `root`; `features/*` takes every feature folder that no
 * other layer names. A new API feature is a product feature unless it is added to an earlier layer here.
 */
export const layers = {
  api: {
    root: 'api/src',
    featureFolders: 'features',
    layers: [
      // The process, the database, HTTP plumbing (contracts, errors, the caller's Principal), clocks and jobs.
      { name: 'infrastructure', paths: ['config.ts', 'db', 'http', 'lib', 'lifecycle'] },
      // Services any feature may use; they import no product feature nor the movie. Loops among them are
      // refused like any other (metrics is the lowest: features hand it what it reports).
      {
        name: 'platform services',
        paths: [
          'features/metrics',
          'features/settings',
          'features/rate-limit',
          'features/storage',
          'features/content-keys',
          'features/mail',
          'features/sms',
          'features/push',
          'features/posters',
          'features/system',
        ],
      },
      // The movie: its row, whether it is live, its files and sizes, its subtitles' summary, who may have it, and
      // the re-download allowance (spent by downloads and licences).
      { name: 'movie', paths: ['features/movies'] },
      { name: 'product features', paths: ['features/*'] },
      // The composition root: reads the environment, builds the dependencies, mounts every feature.
      { name: 'wiring', paths: ['app.ts', 'bootstrap.ts', 'server.ts', 'deps.ts'] },
    ],
    // A feature's routes.ts (or admin-routes.ts) mounts it with the app's dependencies, so it may name the `Deps`
    // type (docs/conventions.md "Who names Deps").
    allowed: [{ from: /routes\.ts$/, to: 'deps.ts' }],
  },
  pwa: {
    root: 'pwa/src',
    featureFolders: 'features',
    layers: [
      // The API client, the session, transfers, and the shared UI: what every screen builds on.
      { name: 'shared code', paths: ['lib', 'components'] },
      { name: 'features', paths: ['features/*'] },
      // The shell: routes, guards, the service worker, prerendering, main.tsx.
      { name: 'app', paths: ['app', 'main.tsx', 'prerender.tsx', 'sw.ts'] },
    ],
    allowed: [],
  },
};
