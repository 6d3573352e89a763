/**
 * Builds the server to JavaScript (docs/decisions/0075): each command the production scripts run
 * becomes one ES module in dist/server/ (`npm start` and `npm run serve` run dist/server/main.js),
 * with the code they share in chunks beside them and a source map for each, so Node runs it
 * without a TypeScript loader. Packages stay imports (better-sqlite3 and pg are native or
 * CommonJS, and node_modules is there in production anyway); only the repository's own TypeScript
 * is bundled. Files read at run time are found from the checkout's root (server/lib/project-root.ts).
 *
 *   node --import tsx scripts/build-server.ts      (npm run build:server, part of npm run build)
 */
import { rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The commands, by the name of their file in dist/server/ (package.json's scripts run them). */
export const serverEntries = {
  main: 'server/main.ts',
  'billing-once': 'server/billing-once.ts',
  backup: 'server/backup.ts',
  'copy-to-postgres': 'server/copy-to-postgres.ts',
  'emulator-main': 'server/emulator-main.ts',
} as const

/** Empties `outdir` (a chunk of an earlier build must not linger) and builds every entry into it. */
export async function buildServer(outdir = resolve(root, 'dist/server')): Promise<void> {
  rmSync(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries(serverEntries).map(([out, input]) => ({ in: input, out })),
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    // Stack traces name the TypeScript files, relative to the map (node --enable-source-maps).
    sourcesContent: false,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const started = performance.now()
  await buildServer()
  process.stdout.write(`server built to dist/server in ${Math.round(performance.now() - started)} ms\n`)
}
