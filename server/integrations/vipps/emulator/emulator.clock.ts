import type { Clock } from '../../../lib/clock'

/**
 * The emulator's business clock: the injected clock plus an offset that `/_control/clock` moves,
 * so a demo or a test can let days pass for charges and agreement expiry without touching the
 * product's clock. Transport concerns (token lifetimes, webhook signature dates, retry backoff,
 * OIDC codes and id_tokens) keep the injected clock, because the product checks those against
 * its own clock and would otherwise refuse them as expired or stale.
 */
export class EmulatorClock implements Clock {
  constructor(
    private readonly base: Clock,
    private readonly offsetMs: () => number,
  ) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs())
  }
}
