import { outsideReadScope } from '../db/read-scope'
import { metrics } from '../observability/metrics'

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

  /**
   * `serial` false (PostgreSQL): writes are not taken in turn here. Every connection of the pool
   * has its own transaction, SERIALIZABLE ones run again when they collide (decision 0058), and
   * what holds across instances holds within one, so one instance's writes need no turn either.
   */
  constructor(private readonly serial = true) {}

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    if (!this.serial) return outsideReadScope(async () => await fn())
    // The callbacks registered here run in the async context of this call, so leaving the read
    // scope around `then` puts `fn` (and all it awaits) on the writer.
    const asked = performance.now()
    const turn = () => {
      metrics().lockWaitSeconds.observe((performance.now() - asked) / 1000)
      return fn()
    }
    return outsideReadScope(() => {
      const result = this.tail.then(turn, turn)
      this.tail = result.catch(() => undefined)
      return result
    })
  }
}
