/**
 * The test database template: the generated migrations applied and the demo associations seeded
 * (without demo agreements) once, then copied for every test app. Migrating and seeding (one scrypt
 * hash for the demo password) took most of a test app's start; copying an in-memory image takes
 * about a millisecond.
 *
 * vitest's globalSetup (server/test/global-setup.ts) builds the image once per run and hands its
 * file to the workers; without it (or for another APP_SECRET_KEY, which seals the demo provider's
 * secrets differently) the image is built once per test file.
 */
import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { inject } from 'vitest'
import { inMemoryDatabase, type Database_, type SqliteDatabase_ } from '../db/client'
import { buildPgTemplate, copyPgTemplate } from './pg-template'
import { buildTemplateImage, TEST_SECRET_KEY } from './template-build'

export { TEST_SECRET_KEY, TEST_START } from './template-build'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the serialized template for TEST_SECRET_KEY (server/test/global-setup.ts). */
    templateDbPath: string
    /** On PostgreSQL (TEST_ENGINE=postgres): the server and the template database for TEST_SECRET_KEY. */
    pg: { adminUrl: string; template: string }
  }
}

/** Whether the test apps run on PostgreSQL (`npm run test:pg`): tests of SQLite's own machinery skip then. */
export const onPostgres = process.env.TEST_ENGINE === 'postgres'

const pgTemplates = new Map<string, Promise<string>>()

/** A copy of the PostgreSQL template for the secret key (another key's template is built once per worker). */
async function openPgTemplateCopy(secretKey: string): Promise<Database_> {
  const { adminUrl, template } = inject('pg')
  let name = pgTemplates.get(secretKey)
  if (!name) pgTemplates.set(secretKey, (name = secretKey === TEST_SECRET_KEY ? Promise.resolve(template) : buildPgTemplate(adminUrl, secretKey)))
  return await copyPgTemplate(adminUrl, await name)
}

const images = new Map<string, Promise<Buffer>>()

function templateImage(secretKey: string): Promise<Buffer> {
  let image = images.get(secretKey)
  if (!image) {
    let path: string | undefined
    try {
      path = secretKey === TEST_SECRET_KEY ? inject('templateDbPath') : undefined
    } catch {
      path = undefined // not inside a vitest worker
    }
    image = path ? Promise.resolve(readFileSync(path)) : buildTemplateImage(secretKey)
    images.set(secretKey, image)
  }
  return image
}

/**
 * A private in-memory copy of the template, opened with the pragmas `openDatabase` sets (WAL does
 * not apply to memory databases). The migrations are already applied. Reads refuse writes, as on a
 * file database (server/db/client.ts `inMemoryDatabase`).
 */
export async function openTemplateCopy(secretKey = TEST_SECRET_KEY): Promise<SqliteDatabase_> {
  // On PostgreSQL there is no `sqlite`: the tests that reach for it are SQLite-only (`onPostgres`).
  if (onPostgres) return (await openPgTemplateCopy(secretKey)) as SqliteDatabase_
  const sqlite = new Database(await templateImage(secretKey))
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  return inMemoryDatabase(sqlite)
}
