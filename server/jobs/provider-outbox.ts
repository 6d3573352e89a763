import type { Logger } from 'pino'
import type { Db } from '../db/client'
import { todayInCopenhagen, type Clock } from '../lib/clock'
import type { WriteLock } from '../lib/write-lock'
import { providerOutboxRepository as outbox, type ProviderOutboxRow } from '../integrations/vipps/provider-outbox'
import { VippsRejected } from '../integrations/vipps/vipps.errors'
import { vippsKeys } from '../integrations/vipps/idempotency-key'
import { laterOf, plusDays } from '../../shared/domain/billing-period'
import { nextAttemptAt } from '../../shared/domain/backoff'
import { isChargeSettled } from '../../shared/domain/agreement-status'
import type { AgreementsService } from '../features/agreements/agreements.service'
import type { VippsObserver } from '../features/agreements/vipps-observer'
import type { ChargesService } from '../features/billing/charges.service'
import type { Invoicing } from '../features/billing/invoicing'
import type { ProvidersService } from '../features/payment-providers/providers.service'
import { transaction } from '../db/client'
import { DEFAULT_CLAIM_LEASE_MS } from '../env'

/** A failed send to Vipps is tried again with backoff up to this many times, then marked failed. */
export const MAX_OUTBOX_ATTEMPTS = 20
/** 5 s, 10 s, 20 s … at most an hour between attempts. */
const RETRY = { baseMs: 5000, maxMs: 3_600_000 }

/** The claim on a row ran out and another sender took it over: this sender's outcome does not count. */
class LostClaim extends Error {}

export interface ProviderOutboxDeps {
  db: Db
  clock: Clock
  /** The provider's calendar for due dates (the built-in emulator's business clock); defaults to `clock`. */
  businessClock?: Clock
  lock: WriteLock
  log: Logger
  providers: ProvidersService
  agreements: AgreementsService
  charges: ChargesService
  observer: VippsObserver
  invoicing: Invoicing
  /** How long a claimed row is this sender's before another may take it over (CLAIM_LEASE_SECONDS). */
  leaseMs?: number
}

type VippsClient = ReturnType<ProvidersService['vippsClient']>
type ChargeRow = NonNullable<Awaited<ReturnType<ChargesService['row']>>>

/** What a claimed row is sent with: the Vipps client, the agreement at Vipps and the row's charge. */
interface Send {
  entry: ProviderOutboxRow
  client: VippsClient
  vippsAgreementId: string
  charge: ChargeRow | undefined
}

/**
 * The provider-outbox job: sends the queued Vipps calls (stop and price update of an agreement;
 * create, cancel, capture and refund of a charge) with the row id as Idempotency-Key, outside the
 * write lock, and records the outcome. A refused call (4xx) or one failing `MAX_OUTBOX_ATTEMPTS`
 * times is marked failed: a charge Vipps refused to create is DECLINED; a refund's credit note
 * says whether it went through. After a money effect the charge is read back from Vipps.
 */
export class ProviderOutbox {
  constructor(private readonly deps: ProviderOutboxDeps) {}

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  /**
   * Sends the due rows (at most 50 per turn), each claimed first, so a row another instance is
   * sending is left to it; returns how many were due.
   */
  async run(): Promise<number> {
    const { db, clock, lock } = this.deps
    const due = await lock.run(async () => await outbox.due(db, this.nowIso()))
    for (const row of due) {
      const until = new Date(clock.now().getTime() + (this.deps.leaseMs ?? DEFAULT_CLAIM_LEASE_MS)).toISOString()
      const entry = await lock.run(() => outbox.claim(db, row, until))
      if (entry) await this.sendOne(entry)
    }
    return due.length
  }

  /** Records the outcome of `entry`'s claimed send; rolls the transaction back if the claim was lost. */
  private async settle(entry: ProviderOutboxRow, changes: Partial<ProviderOutboxRow>) {
    if (!(await outbox.settle(this.deps.db, entry, changes))) throw new LostClaim(`outbox row ${entry.id} was taken over by another sender`)
  }

  private async markSent(entry: ProviderOutboxRow) {
    await this.settle(entry, { status: 'sent', sentAt: this.nowIso(), lastError: null })
  }

  /** Sends one claimed row (its attempt already counted) and records the outcome. */
  private async sendOne(entry: ProviderOutboxRow): Promise<void> {
    const { lock, providers, agreements, charges } = this.deps
    const ctx = await lock.run(async () => ({
      provider: await providers.byId(entry.providerId),
      agreement: await agreements.rowOf(entry.agreementId),
      charge: entry.chargeId ? await charges.row(entry.chargeId) : undefined,
    }))
    const { provider, agreement, charge } = ctx
    try {
      if (!provider || !agreement?.vippsAgreementId) throw new VippsRejected(404, { detail: 'No Vipps agreement to act on' })
      const send: Send = { entry, client: providers.vippsClient(provider), vippsAgreementId: agreement.vippsAgreementId, charge }
      if (entry.kind === 'CREATE_CHARGE') await this.createCharge(send)
      else await this.sendCall(send)
    } catch (err) {
      await this.failed(entry, charge, err)
    }
  }

  /** CREATE_CHARGE: the charge is created at Vipps and gets its Vipps id. */
  private async createCharge({ entry, client, vippsAgreementId, charge }: Send) {
    const { db, lock, clock } = this.deps
    if (!charge) throw new VippsRejected(404, { detail: 'The charge is gone' })
    // Vipps needs the due date at least a day ahead: a period caught up after downtime is due
    // tomorrow. The date is fixed on the first attempt, so every retry sends the same body
    // with the same Idempotency-Key (Vipps answers 409 to the same key with another body).
    let due = typeof entry.payload.due === 'string' ? entry.payload.due : undefined
    if (!due) {
      due = laterOf(charge.due, plusDays(todayInCopenhagen(this.deps.businessClock ?? clock), 1))
      const payload = { ...entry.payload, due }
      await lock.run(() => outbox.update(db, entry.id, { payload }))
    }
    const created = await client.createCharge(
      vippsAgreementId,
      {
        amount: charge.amountOre,
        transactionType: 'DIRECT_CAPTURE',
        type: charge.type,
        description: charge.description,
        due,
        retryDays: 5,
        externalId: charge.id,
      },
      vippsKeys.outboxRow(entry.id),
    )
    await lock.run(() =>
      transaction(db, async () => {
        await this.deps.charges.createdAtVipps(charge, created.chargeId)
        await this.markSent(entry)
      }),
    )
  }

  /** Every other call: an agreement's stop or price update, a charge's refund, cancel or capture. */
  private async sendCall({ entry, client, vippsAgreementId, charge }: Send) {
    const { db, lock, log } = this.deps
    if (entry.kind === 'STOP_AGREEMENT') await client.stopAgreement(vippsAgreementId, vippsKeys.outboxRow(entry.id))
    else if (entry.kind === 'UPDATE_AGREEMENT') await client.updateAgreement(vippsAgreementId, entry.payload, vippsKeys.outboxRow(entry.id))
    else {
      if (!charge?.vippsChargeId) throw new VippsRejected(404, { detail: 'The charge is not at Vipps' })
      if (entry.kind === 'REFUND_CHARGE')
        await client.refundCharge(
          vippsAgreementId,
          charge.vippsChargeId,
          { amount: Number(entry.payload.amount), description: String(entry.payload.description) },
          vippsKeys.outboxRow(entry.id),
        )
      else if (entry.kind === 'CANCEL_CHARGE') await client.cancelCharge(vippsAgreementId, charge.vippsChargeId, vippsKeys.outboxRow(entry.id))
      else if (entry.kind === 'CAPTURE_CHARGE')
        await client.captureCharge(vippsAgreementId, charge.vippsChargeId, Number(entry.payload.amount), vippsKeys.outboxRow(entry.id))
    }
    await lock.run(() =>
      transaction(db, async () => {
        await this.markSent(entry)
        if (entry.kind === 'REFUND_CHARGE') await this.deps.invoicing.refundSent({ outboxId: entry.id, ok: true })
      }),
    )
    // The refund's history event comes with the charge as Vipps now tells it.
    if (entry.kind !== 'STOP_AGREEMENT' && entry.kind !== 'UPDATE_AGREEMENT' && charge?.vippsChargeId) {
      try {
        const vc = await client.getCharge(vippsAgreementId, charge.vippsChargeId)
        await lock.run(() => transaction(db, async () => this.deps.observer.observeCharge(vc)))
      } catch (err) {
        log.warn({ err, chargeId: charge.id }, 'vipps charge re-read after a money effect failed')
      }
    }
  }

  /**
   * A send failed: tried again later with backoff, or marked failed when Vipps refused it or it
   * failed `MAX_OUTBOX_ATTEMPTS` times (a charge Vipps refused to create is DECLINED; a refund's
   * credit note says it failed). A lost claim leaves the row to the sender that took it over.
   */
  private async failed(entry: ProviderOutboxRow, charge: ChargeRow | undefined, err: unknown) {
    const { db, lock, log, clock, charges, observer, invoicing } = this.deps
    if (err instanceof LostClaim) return void log.warn({ outboxId: entry.id }, err.message)
    const attempts = entry.attempts
    const refused = err instanceof VippsRejected
    const failed = refused || attempts >= MAX_OUTBOX_ATTEMPTS
    log[failed ? 'error' : 'warn']({ err, outboxId: entry.id, kind: entry.kind, attempts }, 'vipps outbox send failed')
    const next = nextAttemptAt(clock.now(), attempts, RETRY)
    await lock
      .run(() =>
        transaction(db, async () => {
          await this.settle(entry, { status: failed ? 'failed' : 'pending', nextAttemptAt: next, lastError: String(err).slice(0, 500) })
          // Vipps refused to create the charge: it never will be collected ("creation failed").
          if (failed && entry.kind === 'CREATE_CHARGE' && charge) {
            const current = (await charges.row(charge.id))!
            if (!isChargeSettled(current.status)) await observer.setChargeStatus(current, 'DECLINED', { failureReason: String(err).slice(0, 200) })
          }
          if (failed && entry.kind === 'REFUND_CHARGE') await invoicing.refundSent({ outboxId: entry.id, ok: false })
        }),
      )
      .catch((lost: unknown) => {
        if (!(lost instanceof LostClaim)) throw lost
        log.warn({ outboxId: entry.id }, lost.message)
      })
  }
}

export const createProviderOutbox = (deps: ProviderOutboxDeps) => new ProviderOutbox(deps)
