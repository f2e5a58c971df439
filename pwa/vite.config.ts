import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_TARGET = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  plugins: [
    react(),
    tailwindcss(),
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
        // The precompressed copies (scripts/precompress.mjs, run after this) are the server's business only.
        globIgnores: ['**/node_modules/**/*', '**/*.br', '**/*.gz'],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/files': { target: API_TARGET, changeOrigin: false },
      '/sandbox': { target: API_TARGET, changeOrigin: false },
    },
  },
});
