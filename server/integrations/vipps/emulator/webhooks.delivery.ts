import { randomUUID } from 'node:crypto'
import type { Clock } from '../../../lib/clock'
import { signWebhook } from '../webhook-signature'
import { backoffMs } from '../../../../shared/domain/backoff'
import type { DeliveryRecord, EmulatorState, EventRecord } from './emulator.state'
import type { WebhookRegistry } from './webhooks.registry'

/**
 * Delivers Recurring events to the registered webhooks, at least once: each event is queued per
 * subscribed hook and posted signed with that hook's secret (docs/DOMAIN.md, webhooks-api
 * request-authentication). A non-2xx answer, a network error or a timeout is retried with
 * exponential backoff (1 s, 2 s, 4 s, …) up to `maxAttempts`; then the delivery is kept aside in
 * `deadDeliveries`. The queue is part of the persisted state, so a restart does not lose events.
 *
 * Webhook modes (`/_control/webhooks`) make the receiver's idempotency and ordering visible:
 * `duplicate` queues every event twice, `reverse` sends what is due newest first.
 */
export interface DeliveryLog {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
}

export interface DeliveryDeps {
  state: EmulatorState
  registry: WebhookRegistry
  /** The injected clock: signature dates and backoff are transport time (see EmulatorClock). */
  clock: Clock
  fetch: typeof fetch
  log: DeliveryLog
  maxAttempts?: number
  baseDelayMs?: number
  timeoutMs?: number
}

export interface DeliveryRun {
  delivered: number
  failed: number
  pending: number
}

export class WebhookDelivery {
  private readonly state: EmulatorState
  private readonly registry: WebhookRegistry
  private readonly clock: Clock
  private readonly log: DeliveryLog
  private readonly maxAttempts: number
  private readonly baseDelayMs: number
  private readonly timeoutMs: number
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly deps: DeliveryDeps) {
    this.state = deps.state
    this.registry = deps.registry
    this.clock = deps.clock
    this.log = deps.log
    this.maxAttempts = deps.maxAttempts ?? 10
    this.baseDelayMs = deps.baseDelayMs ?? 1000
    this.timeoutMs = deps.timeoutMs ?? 10_000
  }

  /** Queues the event for every hook of its MSN subscribed to its type; returns how many. */
  enqueue(event: EventRecord): number {
    const copies = this.state.data.faults.webhookMode === 'duplicate' ? 2 : 1
    let queued = 0
    for (const hook of this.registry.subscribers(event.payload.msn, event.payload.eventType)) {
      for (let i = 0; i < copies; i++) {
        this.state.data.deliveries.push({
          id: randomUUID(),
          hookId: hook.id,
          eventId: event.id,
          body: JSON.stringify(event.payload),
          attempts: 0,
          nextAttemptAt: this.clock.now().getTime(),
          lastError: null,
          seq: this.state.nextSeq(),
        })
        queued++
      }
    }
    if (queued) this.state.changed()
    return queued
  }

  private async send(delivery: DeliveryRecord): Promise<string | null> {
    const hook = this.state.data.hooks[delivery.hookId]
    if (!hook) return null
    try {
      const res = await this.deps.fetch(hook.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...signWebhook(hook.secret, hook.url, delivery.body, this.clock.now()) },
        body: delivery.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      await res.body?.cancel().catch(() => undefined)
      return res.ok ? null : `HTTP ${res.status}`
    } catch (err) {
      return err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    }
  }

  private async run(all: boolean): Promise<DeliveryRun> {
    const now = this.clock.now().getTime()
    const reverse = this.state.data.faults.webhookMode === 'reverse'
    const due = this.state.data.deliveries.filter((d) => all || d.nextAttemptAt <= now).sort((a, b) => (reverse ? b.seq - a.seq : a.seq - b.seq))
    let delivered = 0
    let failed = 0
    for (const delivery of due) {
      if (!this.state.data.deliveries.includes(delivery)) continue
      const error = await this.send(delivery)
      if (error === null) {
        this.state.data.deliveries = this.state.data.deliveries.filter((d) => d !== delivery)
        delivered++
      } else {
        failed++
        delivery.attempts++
        delivery.lastError = error
        delivery.nextAttemptAt = this.clock.now().getTime() + backoffMs(delivery.attempts - 1, { baseMs: this.baseDelayMs, maxMs: Infinity })
        if (delivery.attempts >= this.maxAttempts) {
          this.state.data.deliveries = this.state.data.deliveries.filter((d) => d !== delivery)
          this.state.buryDelivery(delivery)
          this.log.warn({ hookId: delivery.hookId, eventId: delivery.eventId, attempts: delivery.attempts, error }, 'Vipps emulator gave up a webhook delivery')
        } else this.log.info({ hookId: delivery.hookId, attempts: delivery.attempts, error }, 'Vipps emulator webhook delivery failed; will retry')
      }
      this.state.changed()
    }
    this.state.flush()
    return { delivered, failed, pending: this.state.data.deliveries.length }
  }

  /**
   * Sends every delivery whose time has come (all of them with `all`), one at a time in queue
   * order. Runs are serialised so a timer and an explicit flush never send the same delivery twice.
   */
  deliverDue(options: { all?: boolean } = {}): Promise<DeliveryRun> {
    const next = this.queue.then(() => this.run(options.all ?? false))
    this.queue = next.catch(() => undefined)
    return next
  }
}

export const createWebhookDelivery = (deps: DeliveryDeps) => new WebhookDelivery(deps)
