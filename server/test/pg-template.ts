/**
 * The test database template on PostgreSQL (`npm run test:pg`, TEST_ENGINE=postgres): the
 * migrations applied and the demo associations seeded once into a template database, then one
 * `CREATE DATABASE … TEMPLATE` per test app, dropped when its test file ends. The SQLite
 * counterpart is template-db.ts (an in-memory image).
 */
import { randomBytes } from 'node:crypto'
import type { Database_ } from '../db/client'
import { openPostgres } from '../db/postgres'
import { seedDemoData } from '../db/seed'
import { TestClock } from '../lib/clock'
import { createSecretBox } from '../lib/secret-box'
import { onServer } from './pg-cluster'
import { TEST_START } from './template-build'

/** The URL of another database on the same server as `url`. */
export function databaseUrl(url: string, name: string): string {
  // Not `new URL`: a socket URL (`postgres://user@/db?host=/dir`) has no host part to parse.
  const match = /^(postgres(?:ql)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(url)
  if (!match) throw new Error(`not a PostgreSQL URL: ${url}`)
  return `${match[1]}/${name}${match[2] ?? ''}`
}

/** Creates, migrates and seeds a template database for `secretKey`; answers its name. */
export async function buildPgTemplate(adminUrl: string, secretKey: string): Promise<string> {
  const name = `bk_template_${randomBytes(5).toString('hex')}`
  await onServer(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0`))
  const database = await openPostgres(databaseUrl(adminUrl, name), { max: 2 })
  try {
    await seedDemoData(database.db, new TestClock(TEST_START), createSecretBox(secretKey), { demoAgreements: false })
  } finally {
    await database.close()
  }
  // Only a template may be copied while nobody is connected: mark it so, and nobody else connects.
  await onServer(adminUrl, (c) => c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`))
  return name
}

export async function dropPgDatabase(adminUrl: string, name: string): Promise<void> {
  await onServer(adminUrl, async (c) => {
    await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`).catch(() => undefined)
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
}

const copies: Array<{ adminUrl: string; name: string; database: Database_ }> = []

/** A private copy of the template, as the app's database. Dropped by `dropPgCopies` (after each test file). */
export async function copyPgTemplate(adminUrl: string, template: string): Promise<Database_> {
  const name = `bk_test_${randomBytes(6).toString('hex')}`
  // FILE_COPY: a few times faster than WAL_LOG (PostgreSQL 15's default) for a small template.
  await onServer(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`))
  // Migrated with the template. A few connections, closed soon when idle: a test file may hold dozens of apps at once.
  const database = await openPostgres(databaseUrl(adminUrl, name), { max: 4, idleTimeoutMillis: 200, migrate: false })
  copies.push({ adminUrl, name, database })
  return database
}

/** Closes and drops every copy made so far (vitest.setup.ts calls it after each test file). */
export async function dropPgCopies(): Promise<void> {
  const all = copies.splice(0)
  // A few at a time: each DROP DATABASE waits for a checkpoint, which overlaps with the others'.
  for (let i = 0; i < all.length; i += 4)
    await Promise.all(
      all.slice(i, i + 4).map(async (copy) => {
        await Promise.resolve(copy.database.close()).catch(() => undefined)
        await dropPgDatabase(copy.adminUrl, copy.name)
      }),
    )
}
