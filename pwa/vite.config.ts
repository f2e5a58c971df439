import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { inlineThemeScript, prerenderPages } from './scripts/prerender-plugin.ts';

const API_TARGET = 'http://127.0.0.1:8080';

/** The server build of src/prerender.tsx (`vite build --ssr`), which the client build renders pages with. */
const SSR_BUNDLE = fileURLToPath(new URL('./dist-ssr/prerender.js', import.meta.url));

const ADMIN_CHUNKS = 'assets/admin';

/**
 * React Router 7's package exports only its development build (dev warnings and checks included), whatever the
 * mode; its production build sits beside it. The browser build takes that one: less script for a slow phone to
 * evaluate on every cold start. The prerenderer (Node) keeps the package's own entry.
 */
const REACT_ROUTER_PRODUCTION = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/** The admin console's own code: its screens, and the admin side of the shared contracts and schemas (0241). */
const isAdminCode = (id: string) =>
  id.includes('/src/features/admin/') || /\/shared\/src\/(contracts|schemas)\/admin-[^/]*$/.test(id);

/** Chunks made only of the admin console's own code go to their own folder, which the precache leaves out. */
function chunkFileNames(chunk: { moduleIds: readonly string[] }): string {
  const ownCode = chunk.moduleIds.filter((id) => !id.includes('/node_modules/'));
  const adminOnly = ownCode.length > 0 && ownCode.every(isAdminCode);
  return adminOnly ? `${ADMIN_CHUNKS}/[name]-[hash].js` : 'assets/[name]-[hash].js';
}

// `pnpm build` runs two builds: the prerenderer (isSsrBuild, into dist-ssr/), then the app (into dist/).
export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  resolve: isSsrBuild ? {} : { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] },
  plugins: [
    react(),
    tailwindcss(),
    inlineThemeScript(),
    !isSsrBuild && prerenderPages(SSR_BUNDLE),
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src',
        filename: 'sw.ts',
        registerType: 'prompt',
        // We register ourselves with workbox-window (src/lib/pwa.ts): no injected inline script (CSP).
        injectRegister: false,
        manifest: {
          name: 'Filamu',
          short_name: 'Filamu',
          description: 'Download Kinayuganda and English movies with a simple mobile-money subscription.',
          theme_color: '#7c2d12',
          background_color: '#0c0a09',
          display: 'standalone',
          start_url: '/',
          scope: '/',
          icons: [
            { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
        },
        injectManifest: {
          rollupFormat: 'iife',
          globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
          // The admin console is used online, on a desktop: a subscriber's phone never downloads it (0078).
          // The precompressed copies (scripts/precompress.mjs, run after this) are the server's business only.
          globIgnores: ['**/node_modules/**/*', '**/*.br', '**/*.gz', `${ADMIN_CHUNKS}/**`],
        },
        devOptions: { enabled: false },
      }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    modulePreload: false,
    rollupOptions: isSsrBuild ? {} : { output: { chunkFileNames } },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/files': { target: API_TARGET, changeOrigin: false },
      '/sandbox': { target: API_TARGET, changeOrigin: false },
      // The public preview is rendered by the API server (docs/decisions/0215).
      '/browse': { target: API_TARGET, changeOrigin: false },
    },
  },
}));
