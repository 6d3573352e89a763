import { randomUUID } from 'node:crypto'
import type { Clock } from '../../../lib/clock'
import { randomToken } from '../../../lib/ids'
import { RegisterWebhookRequest, recurringWebhookEvents } from '../vipps.schemas'
import type { EmulatorState, HookRecord } from './emulator.state'
import { notFound, parseOr400, validationError } from './problems'

/**
 * Webhooks API v1 registrations (https://developer.vippsmobilepay.com/api/webhooks/): per MSN, each
 * with its own random secret that signs what is delivered to it. Only the Recurring events exist
 * in this emulator, so other event names are refused.
 */
const MAX_PER_EVENT = 25

export function createWebhookRegistry(deps: { state: EmulatorState; clock: Clock }) {
  const { state } = deps
  const hooksOf = (msn: string) => Object.values(state.data.hooks).filter((h) => h.msn === msn)

  function register(msn: string, input: unknown): { id: string; secret: string } {
    const body = parseOr400(RegisterWebhookRequest, input)
    // The real API wants a world-reachable https:// URL; http:// is allowed for the local product.
    if (!URL.canParse(body.url) || !/^https?:$/.test(new URL(body.url).protocol)) throw validationError('url', 'Must be an absolute http(s) URL')
    const unknown = body.events.filter((e) => !(recurringWebhookEvents as readonly string[]).includes(e))
    if (unknown.length) throw validationError('events', `Unknown event types: ${unknown.join(', ')}`)
    for (const event of body.events)
      if (hooksOf(msn).filter((h) => h.events.includes(event)).length >= MAX_PER_EVENT)
        throw validationError('events', `At most ${MAX_PER_EVENT} webhooks per event type`)
    const hook: HookRecord = {
      id: randomUUID(),
      msn,
      url: body.url,
      events: [...new Set(body.events)],
      secret: randomToken(),
      created: deps.clock.now().toISOString(),
    }
    state.data.hooks[hook.id] = hook
    state.changed()
    return { id: hook.id, secret: hook.secret }
  }

  const list = (msn: string) => ({ webhooks: hooksOf(msn).map(({ id, url, events }) => ({ id, url, events })) })

  function remove(msn: string, id: string): void {
    const hook = state.data.hooks[id]
    if (!hook || hook.msn !== msn) throw notFound('Webhook', id)
    delete state.data.hooks[id]
    state.data.deliveries = state.data.deliveries.filter((d) => d.hookId !== id)
    state.changed()
  }

  const subscribers = (msn: string, eventType: string): HookRecord[] => hooksOf(msn).filter((h) => h.events.includes(eventType))

  return { register, list, remove, subscribers }
}

export type WebhookRegistry = ReturnType<typeof createWebhookRegistry>
