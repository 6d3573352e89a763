import type { Clock } from '../../lib/clock'
import { rateLimited } from '../../errors'
import { backoffMs } from '../../../shared/domain/backoff'

const WINDOW_MS = 15 * 60 * 1000

/** Failed attempts in a fixed window per key; successes are never counted. */
class FailureCounter {
  private windows = new Map<string, { start: number; count: number }>()
  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  count(key: string): number {
    const w = this.windows.get(key)
    return w && this.clock.now().getTime() - w.start < this.windowMs ? w.count : 0
  }

  /** Milliseconds until the key's window ends (0 when it has none). */
  retryAfterMs(key: string): number {
    const w = this.windows.get(key)
    return w ? Math.max(0, w.start + this.windowMs - this.clock.now().getTime()) : 0
  }

  fail(key: string): void {
    const now = this.clock.now().getTime()
    const w = this.windows.get(key)
    if (!w || now - w.start >= this.windowMs) this.windows.set(key, { start: now, count: 1 })
    else w.count += 1
    if (this.windows.size > 50_000) for (const [k, v] of this.windows) if (now - v.start >= this.windowMs) this.windows.delete(k)
  }

  forget(key: string): void {
    this.windows.delete(key)
  }
}

export interface LoginThrottleOptions {
  /** Wrong passwords for one account from one IP before that pair waits (default 10 in 15 minutes). */
  perPair?: number
  /** Failed sign-ins from one IP, whatever the account, before that IP waits (default 50 in 15 minutes). */
  perIp?: number
  /** Wrong passwords for one account from anywhere before each further attempt is slowed (default 10). */
  slowAfter?: number
  /** The longest slow-down of one attempt (default 4 s). */
  maxDelayMs?: number
}

/**
 * Limits password guessing without letting anyone lock another person out (README "Security"):
 * - only failures count: a successful sign-in never uses up an IP's allowance, so an office of
 *   board members behind one address all sign in;
 * - an account is blocked only for the IP that guessed wrong (the account + IP pair); from any
 *   other place the right password still works;
 * - guesses spread over many IPs slow every attempt on that account by a short, growing delay
 *   (250 ms doubling, at most 4 s) instead of blocking it.
 */
export class LoginThrottle {
  private readonly failures: FailureCounter
  /** Account + IP pairs that signed in successfully (known devices). */
  private readonly known = new Set<string>()
  private readonly perPair: number
  private readonly perIp: number
  private readonly slowAfter: number
  private readonly maxDelayMs: number

  constructor(clock: Clock, options: LoginThrottleOptions = {}) {
    this.failures = new FailureCounter(clock, WINDOW_MS)
    this.perPair = options.perPair ?? 10
    this.perIp = options.perIp ?? 50
    this.slowAfter = options.slowAfter ?? 10
    this.maxDelayMs = options.maxDelayMs ?? 4000
  }

  /**
   * Throws 429 when this account from this IP has failed too often, or this IP has — unless the
   * account signed in from this IP before (a known device), so failures of others behind the same
   * office or carrier address do not lock out people who sign in there.
   */
  assertAllowed(ip: string, account?: string): void {
    const pair = account ? `pair:${account}\u0000${ip}` : undefined
    let wait = 0
    if (pair && this.failures.count(pair) >= this.perPair) wait = this.failures.retryAfterMs(pair)
    const known = pair !== undefined && this.known.has(pair)
    if (!known && this.failures.count(`ip:${ip}`) >= this.perIp) wait = Math.max(wait, this.failures.retryAfterMs(`ip:${ip}`))
    if (wait > 0) throw rateLimited(Math.ceil(wait / 1000))
  }

  /** How long to hold this attempt before checking the password (0 unless the account is under attack). */
  delayMs(account: string): number {
    const over = this.failures.count(`account:${account}`) - this.slowAfter
    return over < 0 ? 0 : backoffMs(over, { baseMs: 250, maxMs: this.maxDelayMs })
  }

  failed(ip: string, account?: string): void {
    this.failures.fail(`ip:${ip}`)
    if (account) {
      this.failures.fail(`pair:${account}\u0000${ip}`)
      this.failures.fail(`account:${account}`)
    }
  }

  /** The right password from this IP: its pair starts over and is known from now on (other IPs' failures still slow attackers). */
  succeeded(ip: string, account: string): void {
    const pair = `pair:${account}\u0000${ip}`
    this.failures.forget(pair)
    this.known.add(pair)
    // Bounded memory: the oldest known pairs are forgotten first (they only lose the exemption).
    if (this.known.size > 100_000) this.known.delete(this.known.values().next().value!)
  }
}
