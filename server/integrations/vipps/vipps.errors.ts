import type { Problem } from './vipps.schemas'

/** Vipps refused the request (4xx): retrying the same request will not help. */
export class VippsRejected extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(problem?.detail ?? problem?.title ?? `Vipps answered ${status}`)
    this.name = 'VippsRejected'
  }

  /** The fields Vipps named, e.g. `['amount']`. */
  get fields(): string[] {
    return (this.problem?.extraDetails ?? []).map((d) => d.name ?? d.field ?? '').filter(Boolean)
  }
}

/**
 * Vipps could not be reached or kept failing (network error, timeout, 429 or 5xx after the
 * retries). The request may or may not have been applied: repeat it with the same
 * Idempotency-Key later, never with a new one.
 */
export class VippsUnavailable extends Error {
  constructor(
    message: string,
    readonly lastStatus?: number,
  ) {
    super(message)
    this.name = 'VippsUnavailable'
  }
}

/** Vipps answered with something that does not match its documented shape. */
export class VippsBadResponse extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'VippsBadResponse'
  }
}
