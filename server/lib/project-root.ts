import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The checkout's root folder (the one holding package.json), found upwards from this module:
 * from `server/lib/` when the TypeScript runs (tests, `npm run dev`) and from `dist/server/` when
 * the built JavaScript does (`npm start`, docs/decisions/0075). Files the server reads at run time
 * (the migrations in drizzle/, the compiled server catalogs, the address sample, the built client)
 * are found from here, never relative to the module that reads them: in the build that module is
 * one file with all the others.
 */
export function findProjectRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`)
  }
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)))

/** A path inside the checkout, e.g. `fromRoot('drizzle')`. */
export const fromRoot = (...parts: string[]): string => resolve(projectRoot, ...parts)
