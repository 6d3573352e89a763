import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Which SQLite connection a request's queries use (docs/decisions/0049-reads-on-their-own-connection.md).
 *
 * A file database has two connections: the writer, on which write requests keep `BEGIN IMMEDIATE`
 * open across awaits under the write lock, and a read-only reader, which in WAL mode sees only
 * committed data. `writeTransaction` runs each GET/HEAD/OPTIONS inside a read scope; the `db`
 * handle from `openDatabase` then sends every query to the reader, so a read neither waits for
 * the lock nor sees a write's uncommitted rows. Everything run under the write lock leaves the
 * scope (`WriteLock.run` calls `outsideReadScope`), so a write started during a read still goes
 * to the writer. The scope follows the request across awaits (AsyncLocalStorage).
 */
const scope = new AsyncLocalStorage<true>()

/** Runs `fn` (and whatever it awaits or schedules) with queries on the read-only connection. */
export const inReadScope = <T>(fn: () => T): T => scope.run(true, fn)

/** Runs `fn` (and whatever it awaits or schedules) with queries on the writer again. */
export const outsideReadScope = <T>(fn: () => T): T => scope.exit(fn)

/** Whether the current request is a read that should use the read-only connection. */
export const inReadScopeNow = (): boolean => scope.getStore() === true
