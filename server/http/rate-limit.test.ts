import { describe, expect, it } from 'vitest'
import { TestClock } from '../lib/clock'
import { DomainError } from '../errors'
import { RateLimiter } from './rate-limit'

describe('RateLimiter', () => {
  it('refuses the attempt after the limit with the seconds left in the window', () => {
    const clock = new TestClock()
    const limiter = new RateLimiter(clock, 2, 60_000)
    limiter.hit('ip:1')
    limiter.hit('ip:1')
    clock.advance(15_000)
    try {
      limiter.hit('ip:1')
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError)
      expect((e as DomainError).code).toBe('RATE_LIMITED')
      expect((e as DomainError).extra.retryAfterSeconds).toBe(45)
    }
  })

  it('starts a new window once the old one has passed', () => {
    const clock = new TestClock()
    const limiter = new RateLimiter(clock, 1, 1000)
    limiter.hit('a')
    clock.advance(1000)
    expect(() => limiter.hit('a')).not.toThrow()
  })

  it('limits on every key it is given', () => {
    const limiter = new RateLimiter(new TestClock(), 1, 1000)
    limiter.hit('ip:1', 'account:x')
    expect(() => limiter.hit('ip:2', 'account:x')).toThrow(DomainError)
  })
})
