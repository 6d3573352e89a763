/**
 * The PostgreSQL schema (server/db/schema-pg/) is the SQLite one (server/db/schema/) on another
 * engine (docs/decisions/0054-postgresql-schema-beside-sqlite.md): the same files, tables,
 * columns (name, nullability, primary key, type family, enum values, default), indexes (name,
 * columns, unique, partial WHERE), foreign keys and unique and check constraints, as drizzle's
 * getTableConfig reads them on each side. A column or index added to one side only fails here.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { is, SQL, type Column } from 'drizzle-orm'
import { getTableConfig as pgConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, SQLiteSyncDialect, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'

interface ColumnShape {
  notNull: boolean
  /** drizzle's data type: string, number, boolean, json, … (the TypeScript value both sides give). */
  family: string
  enumValues: readonly string[] | undefined
  default: unknown
  /** Numbered by the database: SQLite's AUTOINCREMENT, PostgreSQL's identity. */
  generated: boolean
}

interface TableShape {
  columns: Record<string, ColumnShape>
  primaryKey: string[]
  indexes: Record<string, { columns: string[]; unique: boolean; where: string | null }>
  foreignKeys: Record<string, { columns: string[]; foreignTable: string; foreignColumns: string[]; onDelete: string; onUpdate: string }>
  uniqueConstraints: Record<string, string[]>
  checks: Record<string, string>
}

type Engine = 'sqlite' | 'pg'

const sqliteDialect = new SQLiteSyncDialect()
const pgDialect = new PgDialect()

/** A bare SQL fragment (a partial index's WHERE, a check, a default) as text, runs of spaces folded. */
function sqlText(engine: Engine, value: SQL): string {
  const { sql, params } = engine === 'sqlite' ? sqliteDialect.sqlToQuery(value) : pgDialect.sqlToQuery(value)
  return `${sql.replace(/\s+/g, ' ').trim()}${params.length ? ` ${JSON.stringify(params)}` : ''}`
}

function columnShape(engine: Engine, column: Column): ColumnShape {
  const generated = engine === 'sqlite' ? (column as Column & { autoIncrement?: boolean }).autoIncrement === true : column.generatedIdentity !== undefined
  return {
    notNull: column.notNull,
    family: column.dataType,
    enumValues: column.enumValues?.length ? column.enumValues : undefined,
    default: is(column.default, SQL) ? sqlText(engine, column.default) : column.default,
    generated,
  }
}

const nameOf = (engine: Engine, column: unknown): string => {
  if (is(column, SQL)) return `(${sqlText(engine, column)})`
  return (column as { name: string }).name
}

function sqliteShape(table: SQLiteTable): TableShape {
  const c = sqliteConfig(table)
  return {
    columns: Object.fromEntries(c.columns.map((col) => [col.name, columnShape('sqlite', col)])),
    primaryKey: [...c.columns.filter((col) => col.primary).map((col) => col.name), ...c.primaryKeys.flatMap((pk) => pk.columns.map((col) => col.name))],
    indexes: Object.fromEntries(
      c.indexes.map((i) => [
        i.config.name,
        {
          columns: i.config.columns.map((col) => nameOf('sqlite', col)),
          unique: i.config.unique,
          where: i.config.where ? sqlText('sqlite', i.config.where) : null,
        },
      ]),
    ),
    foreignKeys: Object.fromEntries(
      c.foreignKeys.map((fk) => {
        const r = fk.reference()
        return [
          fk.getName(),
          {
            columns: r.columns.map((col) => col.name),
            foreignTable: sqliteConfig(r.foreignTable).name,
            foreignColumns: r.foreignColumns.map((col) => col.name),
            onDelete: fk.onDelete ?? 'no action',
            onUpdate: fk.onUpdate ?? 'no action',
          },
        ]
      }),
    ),
    uniqueConstraints: Object.fromEntries(c.uniqueConstraints.map((u) => [u.getName()!, u.columns.map((col) => col.name)])),
    checks: Object.fromEntries(c.checks.map((ch) => [ch.name, sqlText('sqlite', ch.value)])),
  }
}

function pgShape(table: PgTable): TableShape {
  const c = pgConfig(table)
  return {
    columns: Object.fromEntries(c.columns.map((col) => [col.name, columnShape('pg', col)])),
    primaryKey: [...c.columns.filter((col) => col.primary).map((col) => col.name), ...c.primaryKeys.flatMap((pk) => pk.columns.map((col) => col.name))],
    indexes: Object.fromEntries(
      c.indexes.map((i) => [
        i.config.name!,
        { columns: i.config.columns.map((col) => nameOf('pg', col)), unique: i.config.unique, where: i.config.where ? sqlText('pg', i.config.where) : null },
      ]),
    ),
    foreignKeys: Object.fromEntries(
      c.foreignKeys.map((fk) => {
        const r = fk.reference()
        return [
          fk.getName(),
          {
            columns: r.columns.map((col) => col.name),
            foreignTable: pgConfig(r.foreignTable).name,
            foreignColumns: r.foreignColumns.map((col) => col.name),
            onDelete: fk.onDelete ?? 'no action',
            onUpdate: fk.onUpdate ?? 'no action',
          },
        ]
      }),
    ),
    uniqueConstraints: Object.fromEntries(c.uniqueConstraints.map((u) => [u.getName(), u.columns.map((col) => col.name)])),
    checks: Object.fromEntries(c.checks.map((ch) => [ch.name, sqlText('pg', ch.value)])),
  }
}

const sqliteDir = join(import.meta.dirname, 'schema')
const pgDir = join(import.meta.dirname, 'schema-pg')
const schemaFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()

/** Each schema file's tables, by table name. */
async function tablesOf<T>(dir: string, isTable: (value: unknown) => value is T, name: (table: T) => string): Promise<Record<string, Record<string, T>>> {
  const files: Record<string, Record<string, T>> = {}
  for (const file of schemaFiles(dir)) {
    const module = (await import(join(dir, file))) as Record<string, unknown>
    files[file] = Object.fromEntries(
      Object.values(module)
        .filter(isTable)
        .map((t) => [name(t), t]),
    )
  }
  return files
}

const sqliteFiles = await tablesOf(
  sqliteDir,
  (v): v is SQLiteTable => is(v, SQLiteTable),
  (t) => sqliteConfig(t).name,
)
const pgFiles = await tablesOf(
  pgDir,
  (v): v is PgTable => is(v, PgTable),
  (t) => pgConfig(t).name,
)

describe('schema parity: SQLite and PostgreSQL', () => {
  it('have the same files, each with the same tables', () => {
    const tableNames = (files: Record<string, Record<string, unknown>>) =>
      Object.fromEntries(Object.entries(files).map(([f, tables]) => [f, Object.keys(tables).sort()]))
    expect(tableNames(pgFiles)).toEqual(tableNames(sqliteFiles))
    // Not vacuous: every table of the app is compared below.
    expect(Object.values(sqliteFiles).flatMap((t) => Object.keys(t)).length).toBeGreaterThanOrEqual(30)
  })

  const pairs = Object.entries(sqliteFiles).flatMap(([file, tables]) => Object.entries(tables).map(([name, table]) => ({ file, name, table })))
  it.each(pairs)('$name ($file): the same columns, keys, indexes and constraints', ({ file, name, table }) => {
    const twin = pgFiles[file]?.[name]
    expect(twin, `server/db/schema-pg/${file} has no table ${name}`).toBeDefined()
    expect(pgShape(twin!)).toEqual(sqliteShape(table))
  })

  it('compares what matters: a partial index and an enum are read on both sides', () => {
    const charges = sqliteShape(sqliteFiles['agreements.ts']!.charges!)
    expect(charges.indexes.charges_regular_agreement_due).toEqual({ columns: ['agreement_id', 'due'], unique: true, where: "kind = 'REGULAR'" })
    expect(pgShape(pgFiles['agreements.ts']!.charges!).columns.kind?.enumValues).toEqual(['REGULAR', 'ONE_TIME', 'FINAL'])
    expect(sqliteShape(sqliteFiles['sync.ts']!.change_log!).columns.seq).toMatchObject({ generated: true, family: 'number' })
  })
})
