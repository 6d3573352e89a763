import type { Logger } from 'pino'
import type { Db } from '../../db/client'
import { conflict, DomainError, invalidState, notFound } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId, randomToken, sha256 } from '../../lib/ids'
import type { SecretBox } from '../../lib/secret-box'
import type { WriteLock } from '../../lib/write-lock'
import { vippsKeys } from '../../integrations/vipps/idempotency-key'
import { VippsRejected } from '../../integrations/vipps/vipps.errors'
import { RecurringWebhookPayload, type AgreementResponseV3, type ChargeResponseV3 } from '../../integrations/vipps/vipps.schemas'
import { verifyWebhook } from '../../integrations/vipps/webhook-signature'
import type { RegisterWebhookRequest, Webhook } from '../../../shared/contract/webhooks'
import { messages } from '../../../shared/i18n-messages'
import { nextAttemptAt } from '../../../shared/domain/backoff'
import type { Actor } from '../../access/actor'
import { assertCan } from '../../access/policy'
import type { ProvidersService } from '../payment-providers'
import { webhooksRepository as repo, type EventRow, type HookRow } from './webhooks.repository'
import { transaction } from '../../db/client'

/** What the domain learns when a webhook is processed: the object as Vipps has it now. */
export type VippsObservation =
  | { kind: 'agreement'; providerId: string; eventType: string; agreement: AgreementResponseV3 }
  | { kind: 'charge'; providerId: string; eventType: string; charge: ChargeResponseV3 }

export interface IncomingWebhook {
  body: string
  pathAndQuery: string
  host: string
  headers: { date?: string; contentSha?: string; authorization?: string }
}

const MAX_ATTEMPTS = 10
/** 5 s, 10 s, 20 s … at most an hour between attempts. */
const RETRY = { baseMs: 5000, maxMs: 3_600_000 }
const view = (h: HookRow): Webhook => ({ id: h.id, url: h.url, events: h.events })

/** What the webhooks service is made with. */
export interface WebhooksServiceDeps {
  db: Db
  clock: Clock
  lock: WriteLock
  secrets: SecretBox
  providers: ProvidersService
  log: Logger
  /** Applies Vipps' current state of an agreement or charge to the domain. */
  observe: (observation: VippsObservation) => Promise<void>
}

/**
 * Vipps webhooks: registration at Vipps (docs/PRODUCT.md §7 webhook calls), and receiving deliveries.
 * A delivery is verified, stored once, and processed later by re-reading the agreement or charge
 * from Vipps (deliveries come at least once and in any order, docs/DOMAIN.md); the re-read object goes
 * to `observe` (the agreements' Vipps observer, given in app.ts) inside the processing transaction.
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  private dummy: string | undefined

  /** A sealed random secret that signs nothing: checked when there is no real secret to check. */
  private dummySealed(): string {
    return (this.dummy ??= this.deps.secrets.seal(randomToken()))
  }

  /** The company of a provider whose webhooks the actor may manage (the super admin's); else 404 (server/access/scope.ts). */
  async scopeOf(actor: Actor, providerId: string): Promise<string> {
    return (await this.manageable(actor, providerId)).companyId
  }

  private async manageable(actor: Actor, providerId: string) {
    assertCan(actor, 'providers:manage')
    return await this.deps.providers.visible(actor, providerId)
  }

  private rethrowVipps(err: unknown): never {
    if (err instanceof VippsRejected) throw new DomainError('BUSINESS_RULE', messages.providerRefused.id, { values: { detail: err.message }, cause: err })
    throw new DomainError('PROVIDER_UNAVAILABLE', messages.providerUnavailable.id, { cause: err })
  }

  private async processOne(event: EventRow): Promise<void> {
    const provider = await this.deps.providers.byId(event.providerId)
    if (!provider) return
    const client = this.deps.providers.vippsClient(provider)
    try {
      const observation: VippsObservation =
        event.chargeId ?
          { kind: 'charge', providerId: provider.id, eventType: event.eventType, charge: await client.getCharge(event.agreementId, event.chargeId) }
        : { kind: 'agreement', providerId: provider.id, eventType: event.eventType, agreement: await client.getAgreement(event.agreementId) }
      await this.deps.lock.run(() =>
        transaction(this.deps.db, async () => {
          await this.deps.observe(observation)
          const status = observation.kind === 'charge' ? observation.charge.status : observation.agreement.status
          await repo.updateEvent(this.deps.db, event.id, {
            status: 'processed',
            observedStatus: status,
            processedAt: this.deps.clock.now().toISOString(),
            attempts: event.attempts + 1,
          })
        }),
      )
      this.deps.log.info({ eventType: event.eventType, agreementId: event.agreementId, chargeId: event.chargeId }, 'vipps webhook processed')
    } catch (err) {
      const attempts = event.attempts + 1
      const failed = attempts >= MAX_ATTEMPTS
      const next = nextAttemptAt(this.deps.clock.now(), attempts, RETRY)
      this.deps.log[failed ? 'error' : 'warn']({ err, eventId: event.id, attempts }, 'vipps webhook processing failed')
      await this.deps.lock.run(() =>
        repo.updateEvent(this.deps.db, event.id, {
          status: failed ? 'failed' : 'received',
          attempts,
          nextAttemptAt: next,
          lastError: String(err).slice(0, 500),
        }),
      )
    }
  }

  async providerSummaries(actor: Actor) {
    assertCan(actor, 'providers:manage')
    return await Promise.all(
      (await this.deps.providers.manageable(actor)).map(async (p) => ({
        id: p.id,
        companyId: p.companyId,
        type: p.type,
        providerName: p.providerName,
        isActive: p.isActive,
        isTest: p.isTest,
        webhookCount: (await repo.hooksOf(this.deps.db, p.id)).filter((h) => h.status === 'active').length,
      })),
    )
  }

  async list(actor: Actor, providerId: string): Promise<Webhook[]> {
    await this.manageable(actor, providerId)
    return (await repo.hooksOf(this.deps.db, providerId)).filter((h) => h.status === 'active').map(view)
  }

  /**
   * Registers a webhook at Vipps. The row is written first; Vipps is called outside the write
   * this.deps.lock with the row id as Idempotency-Key; then the returned secret is sealed and stored.
   * A second request for the same URL is refused, so a double click registers once.
   */
  async register(actor: Actor, providerId: string, input: RegisterWebhookRequest): Promise<Webhook> {
    const id = newId()
    const provider = await this.deps.lock.run(() =>
      transaction(this.deps.db, async () => {
        const p = await this.manageable(actor, providerId)
        if (!p.isActive) throw invalidState(messages.providerInactive.id)
        if ((await repo.hooksOf(this.deps.db, providerId)).some((h) => h.url === input.webhookUrl)) throw conflict(messages.webhookUrlTaken.id, 'webhookUrl')
        await repo.insertHook(this.deps.db, {
          id,
          providerId,
          url: input.webhookUrl,
          events: input.events,
          status: 'registering',
          createdAt: this.deps.clock.now().toISOString(),
        })
        return p
      }),
    )
    try {
      const registered = await this.deps.providers
        .vippsClient(provider)
        .registerWebhook({ url: input.webhookUrl, events: input.events }, vippsKeys.webhookRegistration(id))
      await this.deps.lock.run(() =>
        transaction(this.deps.db, async () => {
          await repo.updateHook(this.deps.db, id, { vippsWebhookId: registered.id, secretSealed: this.deps.secrets.seal(registered.secret), status: 'active' })
          await this.deps.providers.hooksChanged(provider)
        }),
      )
      return { id, url: input.webhookUrl, events: input.events }
    } catch (err) {
      await this.deps.lock.run(() => repo.deleteHook(this.deps.db, id))
      this.rethrowVipps(err)
    }
  }

  async remove(actor: Actor, providerId: string, hookId: string): Promise<void> {
    const { provider, hook } = await this.deps.lock.run(async () => {
      const p = await this.manageable(actor, providerId)
      if (!p.isActive) throw invalidState(messages.providerInactive.id)
      const h = await repo.hook(this.deps.db, providerId, hookId)
      if (!h) throw notFound()
      await repo.updateHook(this.deps.db, h.id, { status: 'deleting' })
      return { provider: p, hook: h }
    })
    try {
      if (hook.vippsWebhookId) await this.deps.providers.vippsClient(provider).deleteWebhook(hook.vippsWebhookId, vippsKeys.webhookDeletion(hook.id))
    } catch (err) {
      // Already gone at Vipps is what we want; anything else leaves the hook as it was.
      if (!(err instanceof VippsRejected && err.status === 404)) {
        await this.deps.lock.run(() => repo.updateHook(this.deps.db, hook.id, { status: 'active' }))
        this.rethrowVipps(err)
      }
    }
    await this.deps.lock.run(() =>
      transaction(this.deps.db, async () => {
        await repo.deleteHook(this.deps.db, hook.id)
        await this.deps.providers.hooksChanged(provider)
      }),
    )
  }

  /**
   * A delivery from Vipps. A bad signature, body hash or date changes nothing (401). The same
   * body twice is stored once. Runs inside the request's write transaction.
   *
   * An unknown provider id answers exactly like a known one with a bad signature (docs/DOMAIN.md "Webhooks"), and
   * is checked against a dummy secret (opened and hashed like a real one), so neither the answer
   * nor its time tells which provider ids exist.
   */
  async receive(providerId: string, incoming: IncomingWebhook): Promise<{ duplicate: boolean }> {
    const now = this.deps.clock.now()
    // Hooks exist only for a known provider: the same one query for any id.
    const sealed = (await repo.hooksOf(this.deps.db, providerId)).flatMap((h) => (h.secretSealed ? [h.secretSealed] : []))
    const signedBy = sealed.find((s) => verifyWebhook(this.deps.secrets.open(s), incoming, now).ok)
    if (!signedBy) {
      if (sealed.length === 0) verifyWebhook(this.deps.secrets.open(this.dummySealed()), incoming, now)
      this.deps.log.warn({ providerId }, 'vipps webhook with an invalid signature refused')
      throw new DomainError('UNAUTHENTICATED', messages.invalidWebhookSignature.id)
    }
    let payload: RecurringWebhookPayload
    try {
      payload = RecurringWebhookPayload.parse(JSON.parse(incoming.body))
    } catch {
      throw new DomainError('VALIDATION_FAILED', messages.validationFailed.id)
    }
    const inserted = await repo.insertEvent(this.deps.db, {
      id: newId(),
      providerId,
      bodyHash: sha256(incoming.body),
      eventType: payload.eventType,
      agreementId: payload.agreementId,
      chargeId: payload.chargeId ?? null,
      payload: incoming.body,
      nextAttemptAt: now.toISOString(),
      receivedAt: now.toISOString(),
    })
    return { duplicate: !inserted }
  }

  /** Processes received deliveries that are due (the job runner calls this). */
  async processDue(): Promise<number> {
    const due = await repo.dueEvents(this.deps.db, this.deps.clock.now().toISOString())
    for (const event of due) await this.processOne(event)
    return due.length
  }

  async events(providerId: string) {
    return await repo.eventsOf(this.deps.db, providerId)
  }
}

export const createWebhooksService = (deps: WebhooksServiceDeps) => new WebhooksService(deps)
