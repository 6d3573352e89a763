import type { Plugin } from 'vite'

/**
 * The app (client/app.tsx) is imported dynamically by the tiny first module (client/main.tsx,
 * which asks for the first sync pages before anything else). Vite preloads a dynamic import's
 * files only when the import runs, one hop after the first module has loaded; this adds
 * `<link rel="modulepreload">` for the app and everything it imports to index.html, so the browser
 * fetches them at once, in parallel with the first module, as it did when the app was the entry.
 */
export function preloadApp(entry = 'client/app.tsx'): Plugin {
  return {
    name: 'boligkasse:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk')
        const app = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(entry))
        if (!app) throw new Error(`preload-app: no chunk for ${entry}`)
        const files = new Set<string>()
        const add = (file: string) => {
          if (files.has(file)) return
          files.add(file)
          for (const imported of chunks.find((c) => c.fileName === file)?.imports ?? []) add(imported)
        }
        add(app.fileName)
        // What Vite links already (the first module and its imports) is not linked twice.
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }))
      },
    },
  }
}
