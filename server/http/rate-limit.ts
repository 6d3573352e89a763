import type { Clock } from '../lib/clock'
import { rateLimited } from '../errors'

/**
 * Fixed-window counters in memory, per key (an IP or an account). Enough for one process;
 * a restart forgets the counts, which only ever lets an attacker start over, never locks users out.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt for every key; throws 429 with Retry-After when any key is over its limit. */
  hit(...keys: string[]): void {
    const now = this.clock.now().getTime()
    let retryAfterMs = 0
    for (const key of keys) {
      let w = this.windows.get(key)
      if (!w || now - w.start >= this.windowMs) {
        w = { start: now, count: 0 }
        this.windows.set(key, w)
      }
      w.count += 1
      if (w.count > this.limit) retryAfterMs = Math.max(retryAfterMs, w.start + this.windowMs - now)
    }
    if (this.windows.size > 50_000) this.sweep(now)
    if (retryAfterMs > 0) throw rateLimited(retryAfterMs / 1000)
  }

  /** Forgets a key (e.g. an account after a successful sign-in). */
  reset(key: string): void {
    this.windows.delete(key)
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k)
  }
}
