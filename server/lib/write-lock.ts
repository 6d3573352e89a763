/**
 * One writer at a time. better-sqlite3 has a single connection per process, so a write request
 * that keeps a transaction open across an `await` must not let another write run statements
 * inside it. Every write path (requests, workers, jobs) runs through this lock.
 */
export class WriteLock {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(fn, fn)
    this.tail = result.catch(() => undefined)
    return result
  }
}
