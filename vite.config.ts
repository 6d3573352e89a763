import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { VitePWA } from 'vite-plugin-pwa'

/** The web client: React PWA built into dist/client and served by the Hono server. */
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: false },
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
    babel({ include: /client[\\/].*\.[jt]sx?$/, plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/vipps-emulator\//],
        runtimeCaching: [],
      },
    }),
  ],
})
