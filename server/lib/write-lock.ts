import { outsideReadScope } from '../db/read-scope'

/**
 * One writer at a time. better-sqlite3 has a single connection per process for writes, so a
 * write request that keeps a transaction open across an `await` must not let another write run
 * statements inside it. Every write path (requests, workers, jobs) runs through this lock.
 *
 * Whatever runs under the lock uses the writer connection, even when it was started during a
 * read (a GET's read scope, server/db/read-scope.ts): the read-only connection would refuse it.
 */
export class WriteLock {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    // The callbacks registered here run in the async context of this call, so leaving the read
    // scope around `then` puts `fn` (and all it awaits) on the writer.
    return outsideReadScope(() => {
      const result = this.tail.then(fn, fn)
      this.tail = result.catch(() => undefined)
      return result
    })
  }
}
