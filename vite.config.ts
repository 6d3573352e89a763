import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { VitePWA } from 'vite-plugin-pwa'
import { preloadApp } from './scripts/vite-preload-app'
import { offlineShell } from './scripts/vite-offline-shell'

// What the service worker precaches: the shell and the routes a fresh device shows first (sign-in,
// then the agreements after it); every other file is kept on first use and fetched in the
// background once the app is ready offline (docs/decisions/0087-ready-offline-from-the-first-visit.md).
const offline = offlineShell({
  routes: ['__root.tsx', 'index.tsx', 'login.tsx', '_auth.tsx', '_auth/agreements/index.tsx'],
  // The locale catalogs, and the schemas the first calls read (decision 0072).
  modules: [/\/client\/locales\/[\w-]+\.po$/, /\/client\/lib\/schema-set\.ts$/],
})

/** The web client: React PWA built into dist/client and served by the Hono server. */
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  // The manifest lets the bench count the JavaScript the first route loads (bench/run.ts).
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    modulePreload: {
      polyfill: false,
      // The app's files are linked from index.html already (scripts/vite-preload-app.ts): the
      // first module's import of the app need not carry their list again.
      resolveDependencies: (file, deps, { hostType }) => (hostType === 'js' && /(^|\/)app-[\w-]{8}\.js$/.test(file) ? [] : deps),
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/vipps-emulator': 'http://localhost:3000' } },
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Absolute: the plugin resolves relative paths against Vite's root (client/), not the repo.
      routesDirectory: fileURLToPath(new URL('./client/routes', import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL('./client/routeTree.gen.ts', import.meta.url)),
    }),
    react(),
    // The query suffix lets route modules split by the router plugin (`?tsr-split=…`) use macros too.
    babel({ include: /client[\\/].*\.[jt]sx?(\?.*)?$/, plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    preloadApp(),
    offline.plugin,
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      // Icons in client/public/icons were drawn from the logo (Logo.tsx) with rsvg-convert; the
      // maskable one keeps the house inside the 80 % safe zone on a full-bleed background.
      manifest: {
        name: 'Boligkasse',
        short_name: 'Boligkasse',
        description: 'Recurring charges, invoices and administration for Danish housing associations — also offline.',
        lang: 'en',
        theme_color: '#0f5c6e',
        background_color: '#f4f6f8',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      integration: {
        // The script names this build's other files, so it is known only once the bundle is written.
        beforeBuildServiceWorker(options) {
          if (!offline.state.script) throw new Error('offline-shell: the bundle named no worker script')
          options.workbox.importScripts = [...(options.workbox.importScripts ?? []), offline.state.script]
        },
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Only the shell, the icons and the manifest; the rest of assets/ is cached on use and in the background.
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter((e) => !e.url.startsWith('assets/') || offline.state.shell.has(e.url)),
            warnings: [],
          }),
        ],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/vipps-emulator\//],
        // Hashed files never change: the first copy is kept (client/sw/offline-cache.js drops older builds').
        runtimeCaching: [
          {
            urlPattern: ({ sameOrigin, url }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'boligkasse-assets', cacheableResponse: { statuses: [200] } },
          },
        ],
        // sw-routes.js lets /api bypass the worker where the browser supports static routing (see the
        // file); sw-push.js shows push notifications (decision 0088); the offline cache's script is
        // added by `integration` above.
        importScripts: ['/sw-routes.js', '/sw-push.js'],
      },
    }),
  ],
})
