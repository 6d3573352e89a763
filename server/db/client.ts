import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fromRoot } from '../lib/project-root'
import Database from 'better-sqlite3'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import { inReadScopeNow } from './read-scope'

/**
 * The drizzle handle the repositories use, typed as asynchronous (docs/decisions/0057): every query
 * is awaited, so the same code runs on better-sqlite3 (where the value is already there) and on
 * PostgreSQL through `sqlite-proxy` (server/db/pg-executor.ts). `run()` answers with the number of
 * rows a write touched on both.
 */
export type Db = BaseSQLiteDatabase<'async', { changes: number }>

/** better-sqlite3 under drizzle, as the asynchronous handle every repository takes. */
export const sqliteHandle = (sqlite: Database.Database): Db => drizzleSqlite(sqlite) as unknown as Db

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

type Run = <T>(fn: () => Promise<T>) => Promise<T>

export type EngineName = 'sqlite' | 'postgres'

/**
 * What a handle that is not better-sqlite3 (PostgreSQL's, server/db/pg-executor.ts) registers:
 * how `transaction(db, …)` and `snapshot(db, …)` run, and how a raw statement (server/db/statement.ts)
 * is sent, on the connection of the transaction in progress.
 */
export interface TransactionOptions {
  /**
   * PostgreSQL runs write transactions SERIALIZABLE: when one fails to serialize (or deadlocks)
   * with another instance's, `fn` runs again on a fresh transaction, up to 5 times in all. Pass
   * false when `fn` cannot run twice; the caller then retries itself (the request transaction
   * runs the whole request again, server/http/write-transaction.ts).
   */
  retry?: boolean
  /**
   * A read that runs first, just before the transaction begins, and so is not part of it: it sees
   * what is committed, and on PostgreSQL takes no part in SERIALIZABLE's conflict checks (the
   * request transaction's look-up of its Idempotency-Key: read inside, two new keys on one index
   * page would make their transactions conflict). On PostgreSQL it runs on the transaction's
   * connection and the BEGIN goes out right behind its statement, in the same round trip, so it
   * makes one statement (a second is refused). Inside a transaction already open it runs first,
   * in it. With every run of `fn` it runs again.
   */
  before?: () => Promise<unknown>
}

/** A statement with `$n` placeholders and its values, as the PostgreSQL engine sends it. */
export interface Query {
  text: string
  values: unknown[]
  /**
   * Names a statement whose text never changes: each connection then parses and plans it once and
   * reuses that (a prepared statement), instead of again at every run. One name, one text.
   */
  name?: string
}

/** Runs of a write transaction in all when PostgreSQL gives up on it to keep transactions serializable. */
export const SERIALIZATION_ATTEMPTS = 8

/**
 * The pause before run `attempt + 1` of a transaction PostgreSQL gave up on: random (full jitter)
 * up to 10, 20, 40 … at most 200 ms, so the transactions that collided do not meet again at once,
 * and a crowd on one row (an association's agreement numbers) spreads out: all eight runs take
 * under a second. What still loses answers 503 BUSY, and the client repeats it.
 */
export const afterSerializationFailure = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)))

/** Whether `err`, or an error it wraps (`cause`: drizzle wraps the driver's), has one of the codes. */
export function hasErrorCode(err: unknown, codes: readonly string[]): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && codes.includes(code)) return true
  }
  return false
}

/** A transaction PostgreSQL gave up on to keep transactions serializable (40001) or to end a deadlock (40P01). */
export const isSerializationFailure = (err: unknown): boolean => hasErrorCode(err, ['40001', '40P01'])

export interface Engine {
  name: EngineName
  transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T>
  snapshot: Run
  /** A statement with `$n` placeholders (named: prepared once per connection, see `Query`): rows as arrays, the column names, rows touched. */
  query(query: Query): Promise<{ rows: unknown[][]; fields: string[]; changes: number }>
  /**
   * The rows the write transaction in progress has collected under `key` (one array per key and
   * transaction): `flush` writes them just before its COMMIT, on its connection. A savepoint that
   * rolls back drops what was collected inside it. Undefined when no write transaction is in
   * progress (the caller then writes at once, in a transaction of its own).
   */
  collect(key: object, flush: (rows: unknown[]) => Promise<void>): unknown[] | undefined
  /**
   * As `collect`, for rows that statements write: `write` makes the statements of the rows collected
   * under `key`, and they go to the server together with the COMMIT, in one round trip (pipelined);
   * the first that fails fails the transaction. Statements collected `last` go after all others
   * (the change log's, whose lock is so held the shortest time, with nothing else left to wait for).
   */
  collectWrites(key: object, write: (rows: unknown[]) => Query[], options?: { last?: boolean }): unknown[] | undefined
  /** Runs `fn` outside the transaction in progress (its queries on the pool, committed on their own). */
  detached<T>(fn: () => Promise<T>): Promise<T>
  /** Runs `fn` unless another instance runs work of the same name now (see `alone`); answers whether it ran. */
  alone(name: string, fn: () => Promise<unknown>): Promise<boolean>
}

const registry = new WeakMap<object, Engine>()

/** Registers the engine behind a handle (PostgreSQL's pool). */
export const registerEngine = (db: Db, engine: Engine): void => void registry.set(db, engine)

/** The engine registered for the handle; undefined for better-sqlite3 (the embedded default). */
export const engineOf = (db: Db): Engine | undefined => registry.get(db)

/**
 * Runs `fn` as one transaction on the database behind `db` and answers what it answers; a failure
 * rolls back everything `fn` wrote. Every query `fn` makes through `db`, across its awaits, is in it. Inside a transaction already open it is a
 * savepoint. On SQLite the caller holds the write lock, as for every write.
 */
export function transaction<T>(db: Db, fn: () => Promise<T>, options?: TransactionOptions): Promise<T> {
  const engine = registry.get(db)
  if (engine) return engine.transaction(fn, options)
  const run = sqliteTransaction(connectionOf(db))
  return options?.before ? options.before().then(() => run(fn)) : run(fn)
}

/**
 * Runs the reads of `fn` on one snapshot of the database (a page and its views from the same
 * moment), without taking the write lock: on SQLite a deferred transaction on the connection in
 * use (the reader's, for a GET), one at a time per connection; on PostgreSQL a read-only
 * REPEATABLE READ transaction. Inside a transaction already open it simply runs `fn`.
 */
export function snapshot<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  return (registry.get(db)?.snapshot ?? sqliteSnapshot(connectionOf(db)))(fn)
}

/**
 * Runs `fn` unless another instance of the server is running work of the same `name` right now
 * (a periodic job: billing, the provider outbox, webhooks, mail, …), and answers whether it ran.
 * On PostgreSQL it is a session advisory lock held on a pooled connection while `fn` runs: two
 * instances never run the same job at once, and when an instance dies its connection closes and
 * the lock is free for the next one's turn. On SQLite there is one server process: it always runs.
 */
export async function alone(db: Db, name: string, fn: () => Promise<unknown>): Promise<boolean> {
  const engine = registry.get(db)
  if (engine) return await engine.alone(name, fn)
  await fn()
  return true
}

/**
 * Runs `fn` outside any transaction the caller is in, as work of its own: the system log's entry
 * for a request that fails and rolls back. On SQLite (one writer, serial) the caller takes the
 * write lock, which runs `fn` after the transaction in progress has ended.
 */
export async function outsideTransaction<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const engine = registry.get(db)
  return engine ? await engine.detached(fn) : await fn()
}

export interface Database_ {
  /**
   * The handle services hold. On a file database it follows the request: the reader's inside a
   * read scope (GET/HEAD/OPTIONS, read-scope.ts), the writer's otherwise (writes, jobs, anything
   * under the write lock).
   */
  db: Db
  /** SQLite's writer connection: write transactions (`BEGIN IMMEDIATE`), jobs, migrations. None on PostgreSQL. */
  sqlite?: Database.Database
  /**
   * The read-only connection of a file database; in WAL mode it sees only committed data. A
   * `:memory:` database cannot be opened twice, so it has none and its reads wait for the write
   * lock on the writer instead (write-transaction.ts).
   */
  reader?: Database.Database
  /** PostgreSQL's pool, for the metrics (its connection counts); none on SQLite. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number }
  /** Which database this is: the embedded SQLite file or PostgreSQL (`DATABASE_URL`). */
  engine: EngineName
  /** PostgreSQL's connection string, for a connection of its own outside the pool (the live module's LISTEN, decision 0086). */
  url?: string
  close(): void | Promise<void>
}

/** A SQLite database (the embedded default): its writer connection is there. */
export type SqliteDatabase_ = Omit<Database_, 'sqlite' | 'close'> & { sqlite: Database.Database; close(): void }

const migrationsFolder = fromRoot('drizzle')

/**
 * Opens (and creates) the SQLite file, turns on WAL and foreign keys, and applies the generated
 * migrations in drizzle/. A file database gets a second, read-only connection for reads
 * (docs/decisions/0049-reads-on-their-own-connection.md). `:memory:` gives a private database for
 * a test, with the writer only.
 */
export function openDatabase(path: string): SqliteDatabase_ {
  const inMemory = path === ':memory:' || path === ''
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true })
  const sqlite = new Database(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  migrate(drizzleSqlite(sqlite), { migrationsFolder })
  if (inMemory) return inMemoryDatabase(sqlite)

  // Opened after the writer has switched the file to WAL (a read-only connection cannot).
  const reader = new Database(path, { readonly: true, fileMustExist: true })
  reader.pragma('busy_timeout = 5000')
  // Belt and braces: a write that reaches this connection fails loudly instead of escaping the lock.
  reader.pragma('query_only = ON')
  return {
    db: followingReadScope(sqliteHandle(sqlite), sqliteHandle(reader)),
    sqlite,
    reader,
    engine: 'sqlite',
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
export function inMemoryDatabase(sqlite: Database.Database): SqliteDatabase_ {
  return {
    db: followingReadScope(sqliteHandle(sqlite), sqliteHandle(refusingWrites(sqlite))),
    sqlite,
    engine: 'sqlite',
    close: () => void sqlite.close(),
  }
}

/** Each connection's `transaction` and `snapshot` runner, made once (the snapshot's queue lives in it). */
const sqliteTransactions = new WeakMap<Database.Database, Run>()
const sqliteSnapshots = new WeakMap<Database.Database, Run>()

/**
 * `transaction` on SQLite: `BEGIN IMMEDIATE` … `COMMIT`, or a savepoint inside the transaction a
 * write request already holds. It keeps the transaction open across `fn`'s awaits, which is safe
 * because every write runs under the write lock (server/lib/write-lock.ts).
 */
function sqliteTransaction(sqlite: Database.Database): Run {
  const known = sqliteTransactions.get(sqlite)
  if (known) return known
  let savepoints = 0
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    const nested = sqlite.inTransaction
    const name = `bk_${++savepoints}`
    sqlite.exec(nested ? `SAVEPOINT ${name}` : 'BEGIN IMMEDIATE')
    try {
      const result = await fn()
      sqlite.exec(nested ? `RELEASE ${name}` : 'COMMIT')
      return result
    } catch (err) {
      if (sqlite.inTransaction) sqlite.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK')
      throw err
    }
  }
  sqliteTransactions.set(sqlite, run)
  return run
}

/** `snapshot` on one SQLite connection: its read transactions one after another (they share it). */
function sqliteSnapshot(sqlite: Database.Database): Run {
  const known = sqliteSnapshots.get(sqlite)
  if (known) return known
  let tail: Promise<unknown> = Promise.resolve()
  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    sqlite.exec('BEGIN')
    try {
      return await fn()
    } finally {
      if (sqlite.inTransaction) sqlite.exec('COMMIT')
    }
  }
  const run = <T>(fn: () => Promise<T>): Promise<T> => {
    // Inside a write (the writer already in its transaction) there is nothing to wait for. The
    // read-only connection's open transaction is another read's snapshot: wait for it to end.
    if (!sqlite.readonly && sqlite.inTransaction) return fn()
    const result = tail.then(() => read(fn))
    tail = result.catch(() => undefined)
    return result
  }
  sqliteSnapshots.set(sqlite, run)
  return run
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
 * One drizzle handle over both connections: every property read (`db.select`, `db.$client`, …)
 * is taken from the reader's drizzle instance inside a read scope and from the writer's
 * otherwise, with methods bound to that instance. The choice is made at each access, so services
 * built once at start-up follow each request; `transaction(db, fn)` and `snapshot(db, fn)` take
 * the connection in use when they begin (`connectionOf`).
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
