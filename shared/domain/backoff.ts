/**
 * The one retry backoff of the product: exponential, `baseMs·2^step` capped at `maxMs` (`step`
 * counts from 0; below 0 counts as 0). Jitter spreads retries that failed together:
 * - `none` (default): exactly the ceiling (the server's outbox jobs, which run on a schedule anyway);
 * - `full`: a random wait from 0 up to the ceiling (the Vipps client's retries within one call);
 * - `equal`: half the ceiling plus a random half (the client's sync drainer).
 * Used by the provider-outbox, webhook and mail jobs, the Vipps client and its emulator, the
 * sign-in slow-down, and the client's sync drainer.
 */
export interface Backoff {
  baseMs: number
  maxMs: number
  jitter?: 'none' | 'full' | 'equal'
  /** A random number in [0, 1); tests pass a fixed one. */
  random?: () => number
}

export function backoffMs(step: number, b: Backoff): number {
  const ceiling = Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, step))
  const random = b.random ?? Math.random
  if (b.jitter === 'full') return Math.round(random() * ceiling)
  if (b.jitter === 'equal') return Math.round(ceiling / 2 + (random() * ceiling) / 2)
  return ceiling
}

/** The instant `backoffMs` after `now` (ISO), for a row's next attempt. */
export const nextAttemptAt = (now: Date, step: number, b: Backoff): string => new Date(now.getTime() + backoffMs(step, b)).toISOString()
