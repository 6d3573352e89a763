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

export function createWebhookDelivery(deps: DeliveryDeps) {
  const { state, registry, clock, log } = deps
  const maxAttempts = deps.maxAttempts ?? 10
  const baseDelayMs = deps.baseDelayMs ?? 1000
  const timeoutMs = deps.timeoutMs ?? 10_000
  let queue: Promise<unknown> = Promise.resolve()

  /** Queues the event for every hook of its MSN subscribed to its type; returns how many. */
  function enqueue(event: EventRecord): number {
    const copies = state.data.faults.webhookMode === 'duplicate' ? 2 : 1
    let queued = 0
    for (const hook of registry.subscribers(event.payload.msn, event.payload.eventType)) {
      for (let i = 0; i < copies; i++) {
        state.data.deliveries.push({
          id: randomUUID(),
          hookId: hook.id,
          eventId: event.id,
          body: JSON.stringify(event.payload),
          attempts: 0,
          nextAttemptAt: clock.now().getTime(),
          lastError: null,
          seq: state.nextSeq(),
        })
        queued++
      }
    }
    if (queued) state.changed()
    return queued
  }

  async function send(delivery: DeliveryRecord): Promise<string | null> {
    const hook = state.data.hooks[delivery.hookId]
    if (!hook) return null
    try {
      const res = await deps.fetch(hook.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...signWebhook(hook.secret, hook.url, delivery.body, clock.now()) },
        body: delivery.body,
        signal: AbortSignal.timeout(timeoutMs),
      })
      await res.body?.cancel().catch(() => undefined)
      return res.ok ? null : `HTTP ${res.status}`
    } catch (err) {
      return err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    }
  }

  async function run(all: boolean): Promise<DeliveryRun> {
    const now = clock.now().getTime()
    const reverse = state.data.faults.webhookMode === 'reverse'
    const due = state.data.deliveries.filter((d) => all || d.nextAttemptAt <= now).sort((a, b) => (reverse ? b.seq - a.seq : a.seq - b.seq))
    let delivered = 0
    let failed = 0
    for (const delivery of due) {
      if (!state.data.deliveries.includes(delivery)) continue
      const error = await send(delivery)
      if (error === null) {
        state.data.deliveries = state.data.deliveries.filter((d) => d !== delivery)
        delivered++
      } else {
        failed++
        delivery.attempts++
        delivery.lastError = error
        delivery.nextAttemptAt = clock.now().getTime() + backoffMs(delivery.attempts - 1, { baseMs: baseDelayMs, maxMs: Infinity })
        if (delivery.attempts >= maxAttempts) {
          state.data.deliveries = state.data.deliveries.filter((d) => d !== delivery)
          state.buryDelivery(delivery)
          log.warn({ hookId: delivery.hookId, eventId: delivery.eventId, attempts: delivery.attempts, error }, 'Vipps emulator gave up a webhook delivery')
        } else log.info({ hookId: delivery.hookId, attempts: delivery.attempts, error }, 'Vipps emulator webhook delivery failed; will retry')
      }
      state.changed()
    }
    state.flush()
    return { delivered, failed, pending: state.data.deliveries.length }
  }

  /**
   * Sends every delivery whose time has come (all of them with `all`), one at a time in queue
   * order. Runs are serialised so a timer and an explicit flush never send the same delivery twice.
   */
  function deliverDue(options: { all?: boolean } = {}): Promise<DeliveryRun> {
    const next = queue.then(() => run(options.all ?? false))
    queue = next.catch(() => undefined)
    return next
  }

  return { enqueue, deliverDue }
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>
