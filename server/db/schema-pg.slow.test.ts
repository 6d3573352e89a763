/**
 * A column is written in one place (docs/decisions/0074-one-definition-per-table-and-query.md):
 * added to one SQLite table in a copy of the schema, it reaches both engines' migrations through
 * the generator (scripts/generate-pg-schema.ts) and drizzle-kit, as `npm run db:generate` runs
 * them. Everything happens in a temporary copy of the repository's schema, migrations and configs;
 * the real ones are left alone.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

describe('a column added to one SQLite table', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bk-one-definition-'))
    // The layout the schema's imports expect (server/db/schema → ../columns, ../../../shared).
    mkdirSync(join(dir, 'server/db'), { recursive: true })
    cpSync(join(root, 'server/db/schema'), join(dir, 'server/db/schema'), { recursive: true })
    copyFileSync(join(root, 'server/db/columns.ts'), join(dir, 'server/db/columns.ts'))
    cpSync(join(root, 'drizzle'), join(dir, 'drizzle'), { recursive: true })
    symlinkSync(join(root, 'shared'), join(dir, 'shared'), 'dir')
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
    writeFileSync(join(dir, 'drizzle.config.ts'), `export default { dialect: 'sqlite', schema: './server/db/schema/*.ts', out: './drizzle' }\n`)
    writeFileSync(join(dir, 'drizzle.pg.config.ts'), `export default { dialect: 'postgresql', schema: './server/db/schema-pg/*.ts', out: './drizzle/pg' }\n`)
  })
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const migrations = (folder: string) => readdirSync(join(dir, folder)).filter((f) => f.endsWith('.sql'))

  it('appears in the new migration of SQLite and of PostgreSQL', () => {
    const invoices = join(dir, 'server/db/schema/invoices.ts')
    const before = readFileSync(invoices, 'utf8')
    const written = before.replace(
      /(\n(\s*)totalOre: bigInteger\('total_ore'\)\.notNull\(\),\n)/,
      `$1$2roundingOre: bigInteger('rounding_ore').notNull().default(0),\n$2roundingNote: text('rounding_note'),\n`,
    )
    expect(written).not.toBe(before)
    writeFileSync(invoices, written)

    const sqliteBefore = migrations('drizzle')
    const pgBefore = migrations('drizzle/pg')
    run(process.execPath, ['--import', 'tsx', join(root, 'scripts/generate-pg-schema.ts'), '--schema', 'server/db/schema', '--out', 'server/db/schema-pg'])
    expect(readFileSync(join(dir, 'server/db/schema-pg/invoices.ts'), 'utf8')).toContain(
      `roundingOre: bigint('rounding_ore', { mode: 'number' }).notNull().default(0)`,
    )
    run('npx', ['drizzle-kit', 'generate', '--config', 'drizzle.config.ts'])
    run('npx', ['drizzle-kit', 'generate', '--config', 'drizzle.pg.config.ts'])

    const added = (folder: string, before: string[]) => {
      const files = migrations(folder).filter((f) => !before.includes(f))
      expect(files, `one new migration in ${folder}`).toHaveLength(1)
      return readFileSync(join(dir, folder, files[0]!), 'utf8')
    }
    const sqlite = added('drizzle', sqliteBefore)
    const postgres = added('drizzle/pg', pgBefore)
    expect(sqlite).toContain('ALTER TABLE `invoices` ADD `rounding_ore` integer DEFAULT 0 NOT NULL;')
    expect(sqlite).toContain('ALTER TABLE `invoices` ADD `rounding_note` text;')
    expect(postgres).toContain('ALTER TABLE "invoices" ADD COLUMN "rounding_ore" bigint DEFAULT 0 NOT NULL;')
    expect(postgres).toContain('ALTER TABLE "invoices" ADD COLUMN "rounding_note" text;')
    // Nothing else changed on either engine: the generated schema was today's before the column.
    expect(sqlite.split('--> statement-breakpoint').length).toBe(2)
    expect(postgres.split('--> statement-breakpoint').length).toBe(2)
  })
})
