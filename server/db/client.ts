import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { inReadScopeNow } from './read-scope'

export type Db = BetterSQLite3Database

/**
 * The better-sqlite3 connection under a drizzle handle (the database or a transaction on it), for
 * the code that keeps prepared statements (sync/change-log.ts, vipps/provider-outbox.ts,
 * statistics). On the handle `openDatabase` gives a file database this is the connection in use
 * now: the read-only one inside a read scope (read-scope.ts), the writer otherwise. So keep
 * statements per connection (a WeakMap by connection, as statistics.repository.ts does), never
 * prepare them once at construction for every request.
 */
export const connectionOf = (db: Db): Database.Database =>
  (db as { $client?: Database.Database }).$client ?? (db as unknown as { session: { client: Database.Database } }).session.client

export interface Database_ {
  /**
   * The handle services hold. On a file database it follows the request: the reader's inside a
   * read scope (GET/HEAD/OPTIONS, read-scope.ts), the writer's otherwise (writes, jobs, anything
   * under the write lock).
   */
  db: Db
  /** The writer connection: write transactions (`BEGIN IMMEDIATE`), jobs, migrations. */
  sqlite: Database.Database
  /**
   * The read-only connection of a file database; in WAL mode it sees only committed data. A
   * `:memory:` database cannot be opened twice, so it has none and its reads wait for the write
   * lock on the writer instead (write-transaction.ts).
   */
  reader?: Database.Database
  close(): void
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle')

/**
 * Opens (and creates) the SQLite file, turns on WAL and foreign keys, and applies the generated
 * migrations in drizzle/. A file database gets a second, read-only connection for reads
 * (docs/decisions/0049-reads-on-their-own-connection.md). `:memory:` gives a private database for
 * a test, with the writer only.
 */
export function openDatabase(path: string): Database_ {
  const inMemory = path === ':memory:' || path === ''
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true })
  const sqlite = new Database(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  const writer = drizzle(sqlite)
  migrate(writer, { migrationsFolder })
  if (inMemory) return inMemoryDatabase(sqlite)

  // Opened after the writer has switched the file to WAL (a read-only connection cannot).
  const reader = new Database(path, { readonly: true, fileMustExist: true })
  reader.pragma('busy_timeout = 5000')
  // Belt and braces: a write that reaches this connection fails loudly instead of escaping the lock.
  reader.pragma('query_only = ON')
  return {
    db: followingReadScope(writer, drizzle(reader)),
    sqlite,
    reader,
    close: () => {
      reader.close()
      sqlite.close()
    },
  }
}

/**
 * The handles over a `:memory:` connection (also the test template's copies, server/test/template-db.ts).
 * There is no second connection, so reads wait for the write lock (write-transaction.ts); inside
 * a read scope `db` still refuses any statement that would write, as the read-only connection of
 * a file database does, so a test catches a GET that writes.
 */
export function inMemoryDatabase(sqlite: Database.Database): Database_ {
  return { db: followingReadScope(drizzle(sqlite), drizzle(refusingWrites(sqlite))), sqlite, close: () => sqlite.close() }
}

/** The connection, except that preparing a statement that writes throws (better-sqlite3's `Statement.readonly`). */
function refusingWrites(sqlite: Database.Database): Database.Database {
  const prepare = (sql: string) => {
    const statement = sqlite.prepare(sql)
    if (!statement.readonly) throw new Error(`A read (GET) must not write; a route that changes data is a write. Refused: ${sql.slice(0, 120)}`)
    return statement
  }
  return new Proxy(sqlite, {
    get: (target, property) => {
      if (property === 'prepare') return prepare
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * One drizzle handle over both connections: every property read (`db.select`, `db.transaction`,
 * `db.$client`, …) is taken from the reader's drizzle instance inside a read scope and from the
 * writer's otherwise, with methods bound to that instance. The choice is made at each access, so
 * services built once at start-up follow each request; a transaction (`tx`) stays on the
 * connection it began on.
 */
function followingReadScope(writer: Db, reader: Db): Db {
  // Bound once per method (not at every `db.select`); a method replaced later (a test's spy) is bound again.
  type Bound = { of: (...args: unknown[]) => unknown; bound: unknown }
  const bound = new Map<Db, Map<PropertyKey, Bound>>([
    [writer, new Map()],
    [reader, new Map()],
  ])
  const current = () => (inReadScopeNow() ? reader : writer)
  return new Proxy(writer, {
    get(_, property) {
      const target = current()
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      const methods = bound.get(target)!
      let method = methods.get(property)
      if (method?.of !== value) methods.set(property, (method = { of: value as Bound['of'], bound: value.bind(target) }))
      return method.bound
    },
    has: (_, property) => Reflect.has(current(), property),
  })
}
