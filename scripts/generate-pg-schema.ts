/**
 * Writes the PostgreSQL schema (server/db/schema-pg/, drizzle `pg-core`) from the SQLite one
 * (server/db/schema/, `sqlite-core`), the one place a table is written
 * (docs/decisions/0074-one-definition-per-table-and-query.md). It imports the SQLite schema files
 * and reads each table through drizzle's `getTableConfig`, so it sees what drizzle-kit sees, and
 * writes one pg-core file per SQLite file, with the same export names, table, column, index and
 * constraint names. `npm run db:generate` and `npm run db:generate:pg` run it before drizzle-kit;
 * `server/db/schema-pg.test.ts` fails when the files there are not what it writes now.
 *
 *   node --import tsx scripts/generate-pg-schema.ts [--schema <sqlite schema dir>] [--out <dir>]
 *
 * The types, as decision 0054 chose them (the same values on both engines):
 *
 * | SQLite (sqlite-core)                       | PostgreSQL (pg-core)                               |
 * | ------------------------------------------ | -------------------------------------------------- |
 * | `text`, `text({ enum })`                   | `text`, `text({ enum })`                           |
 * | `text({ mode: 'json' })`                   | `json` (keeps the text as written, unlike `jsonb`) |
 * | `integer({ mode: 'boolean' })`             | `boolean`                                          |
 * | `integer`                                  | `integer`                                          |
 * | `bigInteger` (server/db/columns.ts)        | `bigint({ mode: 'number' })`                       |
 * | `… primaryKey({ autoIncrement: true })`    | `… primaryKey().generatedByDefaultAsIdentity()`    |
 * | `real` (8 bytes)                           | `doublePrecision` (PostgreSQL's `real` is 4 bytes) |
 *
 * Indexes (unique, partial `WHERE`, on expressions), foreign keys with their actions, composite
 * primary keys, unique constraints, checks and defaults are carried over as they are; SQL in them
 * keeps its text, with the table's columns as column references. Anything else (a `blob`, a text
 * length, a generated column, a parameter in SQL) stops the generator with what to add here,
 * rather than leaving it out.
 *
 * The one thing PostgreSQL needs that SQLite does not say, decided here:
 * - A composite primary key whose name drizzle would make from its columns
 *   (`<table>_<columns>_pk`) is named `<table>_pk` when that is longer than PostgreSQL's 63 bytes
 *   (which would cut it): the two statistics tables' keys.
 *
 * Runtime-only parts of a column (`$type`, `$defaultFn`) are left out: the PostgreSQL schema is
 * read by drizzle-kit and the tests, never by queries (decision 0057: the repositories query the
 * SQLite tables on both engines), and they make no DDL.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { Column, getTableColumns, is, SQL, StringChunk } from 'drizzle-orm'
import { getTableConfig, SQLiteTable, type SQLiteColumn } from 'drizzle-orm/sqlite-core'
import * as prettier from 'prettier'
import { SQLiteBigInteger } from '../server/db/columns'

const root = resolve(import.meta.dirname, '..')
export const SQLITE_SCHEMA_DIR = join(root, 'server/db/schema')
export const PG_SCHEMA_DIR = join(root, 'server/db/schema-pg')

/** PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1); a longer one is cut. */
const MAX_IDENTIFIER_BYTES = 63

const header = (file: string) => `// GENERATED from server/db/schema/${file} by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
`

/** Where a SQLite table is exported: its file (without `.ts`) and export name. */
interface Home {
  file: string
  exportName: string
}

/** The schema files of a directory, sorted (tests excluded). */
const schemaFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()

/** One file of the SQLite schema: its name and its tables, in the order written. */
export interface SchemaFile {
  file: string
  tables: { exportName: string; table: SQLiteTable }[]
}

/** The tables of every file of the SQLite schema in `schemaDir` (files without tables left out). */
export async function readSqliteSchema(schemaDir: string = SQLITE_SCHEMA_DIR): Promise<SchemaFile[]> {
  const files: SchemaFile[] = []
  for (const file of schemaFiles(schemaDir)) {
    const path = join(schemaDir, file)
    const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>
    const text = readFileSync(path, 'utf8')
    // In the order they are written (a module's exports come sorted by name).
    const at = (name: string) => {
      const i = text.search(new RegExp(`export const ${name}\\b`))
      return i < 0 ? Infinity : i
    }
    const tables = Object.entries(module)
      .filter((entry): entry is [string, SQLiteTable] => is(entry[1], SQLiteTable))
      .sort(([a], [b]) => at(a) - at(b) || (a < b ? -1 : 1))
      .map(([exportName, table]) => ({ exportName, table }))
    if (tables.length) files.push({ file, tables })
  }
  return files
}

/** The pg-core source of every file of the SQLite schema in `schemaDir`, by file name, formatted. */
export async function generatePgSchema(schemaDir: string = SQLITE_SCHEMA_DIR): Promise<Map<string, string>> {
  return pgSchemaSources(await readSqliteSchema(schemaDir))
}

/** The pg-core source of each file's tables, by file name, formatted as the repository's code. */
export async function pgSchemaSources(files: SchemaFile[]): Promise<Map<string, string>> {
  const homes = new Map<SQLiteTable, Home>()
  for (const { file, tables } of files)
    for (const { exportName, table } of tables) if (!homes.has(table)) homes.set(table, { file: basename(file, '.ts'), exportName })
  const options = { ...(await prettier.resolveConfig(join(PG_SCHEMA_DIR, 'x.ts'))), parser: 'typescript' }
  const out = new Map<string, string>()
  for (const { file, tables } of files) {
    const source = new FileSource(basename(file, '.ts'), homes)
    const body = tables.map(({ exportName, table }) => source.table(exportName, table)).join('\n\n')
    out.set(file, await prettier.format(`${header(file)}${source.imports()}\n\n${body}\n`, options))
  }
  return out
}

/**
 * Writes the generated files into `outDir` (made if missing), replacing its `.ts` files: a file
 * whose SQLite twin is gone goes too. Answers the names written.
 */
export async function writePgSchema(schemaDir: string = SQLITE_SCHEMA_DIR, outDir: string = PG_SCHEMA_DIR): Promise<string[]> {
  const generated = await generatePgSchema(schemaDir)
  mkdirSync(outDir, { recursive: true })
  for (const file of readdirSync(outDir)) if (file.endsWith('.ts') && !generated.has(file)) rmSync(join(outDir, file))
  for (const [file, text] of generated) {
    // Written whole or not at all: drizzle-kit never reads half a file.
    const temporary = join(outDir, `.${file}.tmp`)
    writeFileSync(temporary, text)
    renameSync(temporary, join(outDir, file))
  }
  return [...generated.keys()]
}

/** The pg-core source of one file's tables, and the imports they use. */
class FileSource {
  private readonly pgCore = new Set<string>(['pgTable'])
  private readonly pgCoreTypes = new Set<string>()
  private usesSql = false
  private readonly siblings = new Map<string, Set<string>>()

  constructor(
    private readonly file: string,
    private readonly homes: Map<SQLiteTable, Home>,
  ) {}

  imports(): string {
    const lines: string[] = []
    if (this.usesSql) lines.push(`import { sql } from 'drizzle-orm'`)
    const names = [...this.pgCore].sort().concat([...this.pgCoreTypes].sort().map((t) => `type ${t}`))
    lines.push(`import { ${names.join(', ')} } from 'drizzle-orm/pg-core'`)
    for (const [file, exports] of [...this.siblings].sort(([a], [b]) => (a < b ? -1 : 1)))
      lines.push(`import { ${[...exports].sort().join(', ')} } from './${file}'`)
    return lines.join('\n')
  }

  table(exportName: string, table: SQLiteTable): string {
    const config = getTableConfig(table)
    const columns = Object.entries(getTableColumns(table)) as [string, SQLiteColumn][]
    const keyOf = (column: Column): string => {
      const entry = columns.find(([, c]) => c === column)
      if (!entry) throw new Error(`${config.name}: a column of another table (${column.name}) where one of its own was expected`)
      return entry[0]
    }
    const fail = (what: string): never => {
      throw new Error(`${config.name}: ${what} has no PostgreSQL mapping in scripts/generate-pg-schema.ts; add one there`)
    }
    // Single-column foreign keys without a name of their own stay on their column, as written.
    const inline = new Map<Column, string>()
    const extra: string[] = []
    for (const fk of config.foreignKeys) {
      const { name, columns: from, foreignTable, foreignColumns } = fk.reference()
      const actions = [
        fk.onDelete && fk.onDelete !== 'no action' ? `onDelete: '${fk.onDelete}'` : '',
        fk.onUpdate && fk.onUpdate !== 'no action' ? `onUpdate: '${fk.onUpdate}'` : '',
      ]
        .filter(Boolean)
        .join(', ')
      const target = this.tableRef(foreignTable as SQLiteTable)
      const foreignKeyOf = (column: Column) => Object.entries(getTableColumns(foreignTable as SQLiteTable)).find(([, c]) => c === column)![0]
      if (name === undefined && from.length === 1) {
        const self = foreignTable === table
        if (self) this.pgCoreTypes.add('AnyPgColumn')
        inline.set(
          from[0]!,
          `.references(()${self ? ': AnyPgColumn' : ''} => ${target}.${foreignKeyOf(foreignColumns[0]!)}${actions ? `, { ${actions} }` : ''})`,
        )
      } else {
        this.pgCore.add('foreignKey')
        const chain = `${fk.onDelete && fk.onDelete !== 'no action' ? `.onDelete('${fk.onDelete}')` : ''}${fk.onUpdate && fk.onUpdate !== 'no action' ? `.onUpdate('${fk.onUpdate}')` : ''}`
        extra.push(
          `foreignKey({ ${name !== undefined ? `name: ${str(name)}, ` : ''}columns: [${from.map((c) => `t.${keyOf(c)}`).join(', ')}], foreignColumns: [${foreignColumns.map((c) => `${target}.${foreignKeyOf(c)}`).join(', ')}] })${chain}`,
        )
      }
    }

    const sqlOf = (value: SQL, what: string) => {
      this.usesSql = true
      return sqlSource(
        value,
        (column) => `t.${keyOf(column)}`,
        () => fail(what),
      )
    }

    const columnSources = columns.map(([key, column]) => {
      const name = str(column.name)
      let type: string
      if (is(column, SQLiteBigInteger)) type = this.use('bigint', `bigint(${name}, { mode: 'number' })`)
      else if (column.columnType === 'SQLiteInteger') type = this.use('integer', `integer(${name})`)
      else if (column.columnType === 'SQLiteBoolean') type = this.use('boolean', `boolean(${name})`)
      else if (column.columnType === 'SQLiteTextJson') type = this.use('json', `json(${name})`)
      else if (column.columnType === 'SQLiteReal') type = this.use('doublePrecision', `doublePrecision(${name})`)
      else if (column.columnType === 'SQLiteText') {
        if ((column as SQLiteColumn & { length?: number }).length !== undefined) fail(`the text length of ${column.name}`)
        type = this.use('text', column.enumValues?.length ? `text(${name}, { enum: [${column.enumValues.map(str).join(', ')}] })` : `text(${name})`)
      } else type = fail(`${column.columnType} (${column.name})`)
      if (column.generated) fail(`the generated column ${column.name}`)
      let chain = ''
      if (column.primary) chain += '.primaryKey()'
      if ((column as SQLiteColumn & { autoIncrement?: boolean }).autoIncrement) chain += '.generatedByDefaultAsIdentity()'
      if (column.notNull && !column.primary) chain += '.notNull()'
      if (column.isUnique) chain += `.unique(${column.uniqueName !== undefined ? str(column.uniqueName) : ''})`
      if (column.default !== undefined) {
        if (is(column.default, SQL)) {
          this.usesSql = true
          chain += `.default(${sqlSource(
            column.default,
            () => fail(`a column in the default of ${column.name}`),
            () => fail(`the default of ${column.name}`),
          )})`
        } else chain += `.default(${JSON.stringify(column.default)})`
      }
      chain += inline.get(column) ?? ''
      return `${key}: ${type}${chain},`
    })

    for (const i of config.indexes) {
      const builder = this.use(i.config.unique ? 'uniqueIndex' : 'index', i.config.unique ? 'uniqueIndex' : 'index')
      const on = i.config.columns.map((c) => (is(c, SQL) ? sqlOf(c, `an expression of index ${i.config.name}`) : `t.${keyOf(c as Column)}`))
      const where = i.config.where ? `.where(${sqlOf(i.config.where, `the WHERE of index ${i.config.name}`)})` : ''
      extra.push(`${builder}(${str(i.config.name)}).on(${on.join(', ')})${where}`)
    }
    for (const pk of config.primaryKeys) {
      const drizzleName = `${config.name}_${pk.columns.map((c) => c.name).join('_')}_pk`
      const name = pk.name ?? (Buffer.byteLength(drizzleName) > MAX_IDENTIFIER_BYTES ? `${config.name}_pk` : undefined)
      this.pgCore.add('primaryKey')
      extra.push(`primaryKey({ ${name !== undefined ? `name: ${str(name)}, ` : ''}columns: [${pk.columns.map((c) => `t.${keyOf(c)}`).join(', ')}] })`)
    }
    for (const u of config.uniqueConstraints) {
      this.pgCore.add('unique')
      extra.push(`unique(${u.name !== undefined ? str(u.name) : ''}).on(${u.columns.map((c) => `t.${keyOf(c)}`).join(', ')})`)
    }
    for (const c of config.checks) {
      this.pgCore.add('check')
      extra.push(`check(${str(c.name)}, ${sqlOf(c.value, `check ${c.name}`)})`)
    }

    const third = extra.length ? `, (t) => [${extra.join(', ')}]` : ''
    return `export const ${exportName} = pgTable(${str(config.name)}, {\n${columnSources.join('\n')}\n}${third})`
  }

  /** The expression naming a table here: its export, imported from its file when it lives in another. */
  private tableRef(table: SQLiteTable): string {
    const home = this.homes.get(table)
    if (!home) throw new Error(`${getTableConfig(table).name} is referred to but exported by no schema file`)
    if (home.file !== this.file) {
      let exports = this.siblings.get(home.file)
      if (!exports) this.siblings.set(home.file, (exports = new Set()))
      exports.add(home.exportName)
    }
    return home.exportName
  }

  private use(name: string, source: string): string {
    this.pgCore.add(name)
    return source
  }
}

const str = (value: string) => JSON.stringify(value)

/**
 * A SQL fragment as a `sql` template: its text as written, the table's columns as `${t.key}`
 * references (so PostgreSQL's dialect names them, as drizzle-kit does). Anything else in it (a
 * parameter, another table) is refused.
 */
function sqlSource(value: SQL, column: (c: Column) => string, refuse: () => never): string {
  const parts: string[] = []
  const walk = (chunks: readonly unknown[]) => {
    for (const chunk of chunks) {
      if (is(chunk, StringChunk)) parts.push(chunk.value.join('').replace(/[`\\]|\$\{/g, (m) => `\\${m}`))
      else if (is(chunk, SQL)) walk(chunk.queryChunks)
      else if (is(chunk, Column)) parts.push(`\${${column(chunk)}}`)
      else refuse()
    }
  }
  walk(value.queryChunks)
  return `sql\`${parts.join('')}\``
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { schema: { type: 'string' }, out: { type: 'string' } } })
  const schemaDir = resolve(values.schema ?? SQLITE_SCHEMA_DIR)
  const outDir = resolve(values.out ?? (values.schema ? join(dirname(schemaDir), 'schema-pg') : PG_SCHEMA_DIR))
  const written = await writePgSchema(schemaDir, outDir)
  console.log(`${outDir}: ${written.length} files generated from ${schemaDir}`)
}
