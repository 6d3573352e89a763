/**
 * Raw statements that run on both engines (docs/decisions/0058, "Raw statements"). A few hot
 * paths read or write with hand-written SQL instead of drizzle's builders: the change log the
 * billing run writes three times per agreement, the actor read on every request, the set-based
 * reads behind a page of agreements, the statistics pre-aggregates. Each is one `statement(…)`:
 *
 * - on SQLite a better-sqlite3 statement, prepared once per connection (a request may read on the
 *   read-only connection and write on the writer) and run synchronously underneath;
 * - on PostgreSQL the same text, or the PostgreSQL text given beside it, sent through the handle's
 *   executor (server/db/pg-executor.ts), on the connection of the transaction in progress, as a
 *   named prepared statement (decision 0059).
 *
 * Parameters are positional (`?`, an array) or named (`@name`, an object): SQLite binds them as
 * written. The PostgreSQL text, with `$1, $2, …`, is made once, when the statement is defined
 * (`postgresText`); a run only lines its values up (docs/decisions/0074). Write column aliases
 * quoted (`AS "fullName"`): PostgreSQL folds unquoted names to lower case. What differs between
 * the dialects is written with `Dialect` below.
 */
import type Database from 'better-sqlite3'
import { connectionOf, engineOf, type Db, type EngineName, type Query } from './client'

/**
 * How many statements there are: each is named on PostgreSQL (`bk_<n>`), so a connection parses
 * and plans it once and reuses that. Statements are made at start-up, or once per shape
 * (agreementPage's), so the names are few.
 */
let statements = 0

/** Positional values (`?`) or named ones (`@name`; any object type, interfaces included). */
export type Params = readonly unknown[] | object

/** The spellings that differ between SQLite and PostgreSQL, for statement text built per engine. */
export interface Dialect {
  engine: EngineName
  /** A table of the strings in a JSON array parameter, one row each, in column `value`, named `alias`. */
  jsonValues(parameter: string, alias: string): string
  /** `expression` kept out of index choice (SQLite's unary `+`); PostgreSQL plans by itself. */
  unindexed(expression: string): string
  /** 1-based position of `needle` in `text`, 0 if absent. */
  position(text: string, needle: string): string
  /** Unicode lower case of a text (SQLite's lower() folds only A–Z): see `registerFold`. */
  fold(text: string): string
  /**
   * An inner join (with `ON`) that keeps its left side the outer loop: SQLite's `CROSS JOIN`, which
   * its planner never reorders; PostgreSQL plans by itself (and takes no `ON` after `CROSS JOIN`).
   */
  orderedJoin: string
  /**
   * A JSON array of the rows' `values` arrays (an aggregate, `[[…], […]]`, as text) in `orderBy`
   * order. SQLite's json_group_array takes the rows in the order they come, so the FROM must
   * already give that order (an index's key order, a GROUP BY's, an ordered subquery): no sort is
   * added; PostgreSQL orders inside the aggregate.
   */
  jsonArraysInOrder(values: readonly string[], orderBy: string): string
  /** The larger of two values (SQLite's two-argument max(), PostgreSQL's greatest()); neither may be NULL (the two differ there). */
  greatest(a: string, b: string): string
}

/** SQLite's own lower() folds only A–Z; "søren" must find "Søren": JavaScript's lower case, registered per connection. */
const FOLD = 'boligkasse_fold'

export const dialects: Record<EngineName, Dialect> = {
  sqlite: {
    engine: 'sqlite',
    jsonValues: (parameter, alias) => `json_each(${parameter}) ${alias}`,
    unindexed: (expression) => `+${expression}`,
    position: (text, needle) => `instr(${text}, ${needle})`,
    fold: (text) => `${FOLD}(${text})`,
    orderedJoin: 'CROSS JOIN',
    jsonArraysInOrder: (values) => `json_group_array(json_array(${values.join(', ')}))`,
    greatest: (a, b) => `max(${a}, ${b})`,
  },
  postgres: {
    engine: 'postgres',
    jsonValues: (parameter, alias) => `json_array_elements_text(${parameter}::json) AS ${alias}(value)`,
    unindexed: (expression) => expression,
    position: (text, needle) => `strpos(${text}, ${needle})`,
    // The cluster's collation is C (byte order, as SQLite); ICU's root locale folds all of Unicode.
    fold: (text) => `lower(${text} COLLATE "und-x-icu")`,
    orderedJoin: 'JOIN',
    jsonArraysInOrder: (values, orderBy) => `coalesce(json_agg(json_build_array(${values.join(', ')}) ORDER BY ${orderBy}), '[]'::json)`,
    greatest: (a, b) => `greatest(${a}, ${b})`,
  },
}

export interface Statement<P extends Params, R> {
  /** Every row. */
  all(db: Db, params: P): Promise<R[]>
  /** The first row, or undefined. */
  get(db: Db, params: P): Promise<R | undefined>
  /** A write: how many rows it touched. */
  run(db: Db, params: P): Promise<{ changes: number }>
  /**
   * A write whose outcome nobody waits for (the stored answer of a request): on PostgreSQL, inside
   * a write transaction, it is sent together with the COMMIT, in the same round trip, and its
   * failure (a duplicate key) fails the transaction there; on SQLite, or outside a transaction, it
   * runs at once, as `run`.
   */
  runAtCommit(db: Db, params: P): Promise<void>
}

/** The text of a statement: one for both engines, or built per engine from its `Dialect`. */
export type StatementText = string | ((dialect: Dialect) => string)

/**
 * A raw statement for both engines. `pluck`: each row is its first column's value (better-sqlite3's
 * `.pluck()`).
 */
export function statement<P extends Params, R>(text: StatementText, options: { pluck?: boolean } = {}): Statement<P, R> {
  // Both texts made now, once: a malformed one fails at start-up, not in a request.
  const sqliteText = typeof text === 'string' ? text : text(dialects.sqlite)
  const pgText = postgresText(typeof text === 'string' ? text : text(dialects.postgres))
  const prepared = new WeakMap<Database.Database, Database.Statement>()
  const onSqlite = (db: Db) => {
    const sqlite = connectionOf(db)
    let s = prepared.get(sqlite)
    if (!s) {
      registerFold(sqlite)
      s = sqlite.prepare(sqliteText)
      // A statement that returns no rows cannot pluck; only reads do.
      if (options.pluck && s.reader) s.pluck()
      prepared.set(sqlite, s)
    }
    return s
  }
  const name = `bk_${++statements}`
  const onPostgres = (db: Db, params: P) => engineOf(db)!.query(forPostgres(params))
  const forPostgres = (params: P): Query => ({ text: pgText.text, values: pgText.values(params), name })
  const shape = (rows: unknown[][], fields: string[]): R[] =>
    options.pluck ? (rows.map((r) => r[0]) as R[]) : rows.map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i]])) as R)
  const args = (params: P): unknown[] => (Array.isArray(params) ? (params as unknown[]) : [params])
  /** The key under which a transaction collects this statement's writes for its COMMIT. */
  const atCommit = {}
  const writesAtCommit = (collected: unknown[]) => collected.map((params) => forPostgres(params as P))

  return {
    async all(db, params) {
      if (!engineOf(db)) return onSqlite(db).all(...args(params)) as R[]
      const { rows, fields } = await onPostgres(db, params)
      return shape(rows, fields)
    },
    async get(db, params) {
      if (!engineOf(db)) return onSqlite(db).get(...args(params)) as R | undefined
      const { rows, fields } = await onPostgres(db, params)
      return shape(rows.slice(0, 1), fields)[0]
    },
    async run(db, params) {
      if (!engineOf(db)) return { changes: onSqlite(db).run(...args(params)).changes }
      return { changes: (await onPostgres(db, params)).changes }
    },
    async runAtCommit(db, params) {
      const collected = engineOf(db)?.collectWrites(atCommit, writesAtCommit)
      if (collected) collected.push(params)
      else await this.run(db, params)
    },
  }
}

/** Registers the fold function on a connection once (a connection that never searches pays nothing more). */
const folding = new WeakSet<Database.Database>()
function registerFold(sqlite: Database.Database) {
  if (folding.has(sqlite)) return
  sqlite.function(FOLD, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value) as string | null)
  folding.add(sqlite)
}

/** A statement's PostgreSQL text and how one run's parameters line up with its `$n`. */
export interface PostgresText {
  text: string
  /** The values of one run, in `$n` order. */
  values(params: Params): unknown[]
}

/**
 * The PostgreSQL text of a statement written with `?` or `@name` placeholders, made once when the
 * statement is defined: `?` become `$1, $2, …` in order, each `@name` one number (a name used
 * twice is one number), never inside a quoted string or identifier; `::type` casts are left alone.
 * A text with both kinds is refused. At each run only `values` is called: the parameters in `$n`
 * order, positional ones as given, named ones looked up (a missing name fails).
 */
export function postgresText(text: string): PostgresText {
  const names: string[] = []
  let positional = 0
  let out = ''
  let quote: string | null = null
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote) {
      if (ch === quote) quote = null
      out += ch
    } else if (ch === "'" || ch === '"') {
      quote = ch
      out += ch
    } else if (ch === '?') {
      out += `$${++positional}`
    } else if (ch === '@' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))![0]
      let n = names.indexOf(name) + 1
      if (!n) n = names.push(name)
      out += `$${n}`
      i += name.length
    } else out += ch
  }
  if (positional && names.length) throw new Error(`A statement with both ? and @name placeholders: ${text}`)
  if (!positional && !names.length) return { text: out, values: () => [] }
  if (names.length)
    return {
      text: out,
      values(params) {
        const named = params as Record<string, unknown>
        return names.map((name) => {
          if (Array.isArray(params) || !(name in named)) throw new Error(`Missing parameter @${name}`)
          return named[name]
        })
      },
    }
  return {
    text: out,
    values(params) {
      if (!Array.isArray(params)) throw new Error(`A statement with ? placeholders takes an array of values: ${text}`)
      return Array.from({ length: positional }, (_, i) => (params as readonly unknown[])[i])
    },
  }
}
