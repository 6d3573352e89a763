/**
 * The PostgreSQL schema (server/db/schema-pg/) is generated from the SQLite one (server/db/schema/)
 * by scripts/generate-pg-schema.ts (docs/decisions/0074-one-definition-per-table-and-query.md):
 * these tests fail when the files there are not what the generator writes now (a SQLite table
 * changed without `npm run db:generate`, or a generated file edited by hand), and check the
 * generator's mapping of every construct it knows, the ones the app does not use yet included.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { is, sql, SQL } from 'drizzle-orm'
import { getTableConfig as pgConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core'
import {
  blob,
  check,
  foreignKey,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  unique,
  uniqueIndex,
  type AnySQLiteColumn,
} from 'drizzle-orm/sqlite-core'
import { afterAll, describe, expect, it } from 'vitest'
import { PG_SCHEMA_DIR, pgSchemaSources, writePgSchema } from '../../scripts/generate-pg-schema'
import { bigInteger } from './columns'

const temporary: string[] = []
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})
const temporaryDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-pg-'))
  temporary.push(dir)
  return dir
}
const tsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()

describe('server/db/schema-pg', () => {
  it('is what the generator writes from server/db/schema now (run `npm run db:generate` after changing a table)', async () => {
    const dir = temporaryDir()
    await writePgSchema(undefined, dir)
    expect(tsFiles(PG_SCHEMA_DIR)).toEqual(tsFiles(dir))
    // Not vacuous: every schema file has its twin.
    expect(tsFiles(dir).length).toBeGreaterThanOrEqual(20)
    for (const file of tsFiles(dir)) {
      expect(readFileSync(join(PG_SCHEMA_DIR, file), 'utf8'), `server/db/schema-pg/${file} is not what scripts/generate-pg-schema.ts writes`).toBe(
        readFileSync(join(dir, file), 'utf8'),
      )
    }
  })

  it('says in its first lines that it is generated, by which command, and must not be edited', () => {
    for (const file of tsFiles(PG_SCHEMA_DIR)) {
      const head = readFileSync(join(PG_SCHEMA_DIR, file), 'utf8').split('\n').slice(0, 3).join('\n')
      expect(head).toMatch(/GENERATED .* by scripts\/generate-pg-schema\.ts \(npm run db:generate:pg-schema[\s\S]*do not edit/)
    }
  })
})

describe('scripts/generate-pg-schema.ts', () => {
  // Every construct the generator maps, in two files (a foreign key into the other one).
  const parents = sqliteTable('parents', { id: text('id').primaryKey(), a: integer('a').notNull(), b: integer('b').notNull() }, (t) => [
    uniqueIndex('parents_a_b').on(t.a, t.b),
  ])
  const things = sqliteTable(
    'things',
    {
      id: integer('id').primaryKey({ autoIncrement: true }),
      parentId: text('parent_id').references(() => parents.id, { onDelete: 'set null', onUpdate: 'cascade' }),
      previousId: integer('previous_id').references((): AnySQLiteColumn => things.id),
      ratio: real('ratio').notNull().default(0.5),
      amountOre: bigInteger('amount_ore').notNull(),
      flag: integer('flag', { mode: 'boolean' }).notNull().default(true),
      data: text('data', { mode: 'json' }).$type<string[]>(),
      kind: text('kind', { enum: ['A', 'B`${x}'] })
        .notNull()
        .default('A'),
      code: text('code').unique(),
      createdAt: text('created_at')
        .notNull()
        .default(sql`(CURRENT_TIMESTAMP)`),
      a: integer('a'),
      b: integer('b'),
    },
    (t) => [
      index('things_lower_code').on(sql`lower(${t.code})`),
      uniqueIndex('things_kind')
        .on(t.kind, t.a)
        .where(sql`${t.kind} <> 'A' AND b IS NOT NULL`),
      check('things_ratio', sql`${t.ratio} >= 0`),
      unique('things_a_b').on(t.a, t.b),
      foreignKey({ columns: [t.a, t.b], foreignColumns: [parents.a, parents.b] }).onDelete('cascade'),
    ],
  )
  /** The generated files written beside a link to node_modules, and imported. */
  async function generated() {
    const sources = await pgSchemaSources([
      { file: 'parents.ts', tables: [{ exportName: 'parents', table: parents }] },
      { file: 'things.ts', tables: [{ exportName: 'things', table: things }] },
    ])
    const dir = temporaryDir()
    symlinkSync(resolve(import.meta.dirname, '../../node_modules'), join(dir, 'node_modules'), 'dir')
    for (const [file, text] of sources) writeFileSync(join(dir, file), text)
    const load = async (file: string) => Object.values((await import(join(dir, file))) as Record<string, unknown>).find((v): v is PgTable => is(v, PgTable))!
    return { sources, parents: await load('parents.ts'), things: await load('things.ts') }
  }

  const dialect = new PgDialect()
  const text_ = (value: SQL) => dialect.sqlToQuery(value.inlineParams()).sql

  it('maps each column type, key, default, index, foreign key and constraint', async () => {
    const { sources, things: pg } = await generated()
    expect(sources.get('things.ts')).toContain(`import { parents } from './parents'`)
    const c = pgConfig(pg)
    const column = (name: string) => c.columns.find((col) => col.name === name)!
    expect(c.columns.map((col) => [col.name, col.getSQLType(), col.notNull])).toEqual([
      ['id', 'integer', true],
      ['parent_id', 'text', false],
      ['previous_id', 'integer', false],
      ['ratio', 'double precision', true],
      ['amount_ore', 'bigint', true],
      ['flag', 'boolean', true],
      ['data', 'json', false],
      ['kind', 'text', true],
      ['code', 'text', false],
      ['created_at', 'text', true],
      ['a', 'integer', false],
      ['b', 'integer', false],
    ])
    expect(column('id').primary).toBe(true)
    expect(column('id').generatedIdentity?.type).toBe('byDefault')
    expect(column('kind').enumValues).toEqual(['A', 'B`${x}'])
    expect([column('kind').default, column('flag').default, column('ratio').default]).toEqual(['A', true, 0.5])
    expect(text_(column('created_at').default as SQL)).toBe('(CURRENT_TIMESTAMP)')
    expect([column('code').isUnique, column('code').uniqueName]).toEqual([true, 'things_code_unique'])

    expect(
      c.foreignKeys
        .map((fk) => {
          const r = fk.reference()
          return [fk.getName(), r.columns.map((x) => x.name), pgConfig(r.foreignTable).name, r.foreignColumns.map((x) => x.name), fk.onDelete, fk.onUpdate]
        })
        .sort(),
    ).toEqual([
      ['things_a_b_parents_a_b_fk', ['a', 'b'], 'parents', ['a', 'b'], 'cascade', 'no action'],
      ['things_parent_id_parents_id_fk', ['parent_id'], 'parents', ['id'], 'set null', 'cascade'],
      ['things_previous_id_things_id_fk', ['previous_id'], 'things', ['id'], 'no action', 'no action'],
    ])
    expect(c.indexes.map((i) => [i.config.name, i.config.unique, i.config.where ? text_(i.config.where) : null])).toEqual([
      ['things_lower_code', false, null],
      ['things_kind', true, `"things"."kind" <> 'A' AND b IS NOT NULL`],
    ])
    expect(text_(c.indexes[0]!.config.columns[0] as SQL)).toBe('lower("things"."code")')
    expect(c.checks.map((ch) => [ch.name, text_(ch.value)])).toEqual([['things_ratio', `"things"."ratio" >= 0`]])
    expect(c.uniqueConstraints.map((u) => [u.getName(), u.columns.map((x) => x.name)])).toEqual([['things_a_b', ['a', 'b']]])
  })

  it("names a composite primary key <table>_pk when drizzle's name would pass PostgreSQL's 63 bytes", async () => {
    const wide = sqliteTable('a_table_with_a_rather_long_name', { first: text('first_long_column_name'), second: text('second_long_column_name') }, (t) => [
      primaryKey({ columns: [t.first, t.second] }),
    ])
    const narrow = sqliteTable('narrow', { a: text('a'), b: text('b') }, (t) => [primaryKey({ columns: [t.a, t.b] })])
    const named = sqliteTable('named', { a: text('a'), b: text('b') }, (t) => [primaryKey({ name: 'named_key', columns: [t.a, t.b] })])
    const sources = await pgSchemaSources([
      {
        file: 'keys.ts',
        tables: [
          { exportName: 'wide', table: wide },
          { exportName: 'narrow', table: narrow },
          { exportName: 'named', table: named },
        ],
      },
    ])
    const source = sources.get('keys.ts')!
    expect(source).toContain(`primaryKey({ name: 'a_table_with_a_rather_long_name_pk', columns: [t.first, t.second] })`)
    expect(source).toContain(`primaryKey({ columns: [t.a, t.b] })`)
    expect(source).toContain(`primaryKey({ name: 'named_key', columns: [t.a, t.b] })`)
  })

  it('refuses what it has no mapping for, instead of leaving it out', async () => {
    const odd = sqliteTable('odd', { id: text('id').primaryKey(), bytes: blob('bytes') })
    await expect(pgSchemaSources([{ file: 'odd.ts', tables: [{ exportName: 'odd', table: odd }] }])).rejects.toThrow(
      /odd: SQLiteBlob.* \(bytes\) has no PostgreSQL mapping in scripts\/generate-pg-schema\.ts/,
    )
  })
})
