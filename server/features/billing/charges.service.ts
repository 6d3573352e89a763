import type { Db } from '../../db/client'
import { groupBy } from '../../lib/group-by'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { queueProviderCall } from '../../integrations/vipps/provider-outbox'
import type { ChargeResponseV3, VippsChargeStatus } from '../../integrations/vipps/vipps.schemas'
import type { Charge } from '../../../shared/contract/agreements'
import { chargeStatusRank, type ChargeStatus } from '../../../shared/domain/agreement-status'
import type { Actor } from '../../access/actor'
import { canReadAgreement, isSuperAdmin } from '../../access/policy'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { chargesRepository as repo, type ChargeAgreement, type ChargePageKey, type ChargeRow, type ChargeScope } from './charges.repository'
import type { Invoicing } from './invoicing'

/** Vipps charge status → ours (docs/DOMAIN.md "Status mapping"). */
const CHARGE_STATUS: Record<VippsChargeStatus, ChargeStatus> = {
  PENDING: 'CREATED',
  DUE: 'CREATED',
  PROCESSING: 'CREATED',
  RESERVED: 'RESERVED',
  PARTIALLY_CAPTURED: 'RESERVED',
  CHARGED: 'EXECUTED',
  PARTIALLY_REFUNDED: 'EXECUTED',
  REFUNDED: 'EXECUTED',
  FAILED: 'FAILED',
  CANCELLED: 'CANCELED',
}

export type { ChargeRow }

export interface ChargesServiceDeps {
  db: Db
  clock: Clock
  invoicing: Invoicing
}

/** A charge the product makes (a termination's FINAL, a ONE_TIME). */
export interface NewCharge {
  id?: string
  kind: 'FINAL' | 'ONE_TIME'
  type: ChargeRow['type']
  amountOre: number
  description: string
  due: string
  invoiceId?: string | null
  now: string
}

/**
 * Charges of agreements (decisions 0024 and 0029): their views, a new charge with its invoice and its
 * CREATE_CHARGE call queued for Vipps, and their status as Vipps reports it (forward only, each
 * history event once). Every change is logged for sync with its agreement's audience, and the
 * charge's invoice follows it (invoicing.ts) in the same transaction.
 */
export class ChargesService {
  constructor(private readonly deps: ChargesServiceDeps) {}

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  private async agreementOf(charge: ChargeRow) {
    return (await repo.agreementOf(this.deps.db, charge.agreementId))!
  }

  /** The charge changed (and with it its agreement's view: overdue, history). */
  changed(charge: ChargeRow, agreement: Pick<ChargeAgreement, 'companyId' | 'memberUserId'>) {
    return recordChange(this.deps.db, this.deps.clock, 'charge', charge.id, 'upsert', { companyId: agreement.companyId, userId: agreement.memberUserId })
  }

  async views(rows: ChargeRow[]): Promise<Charge[]> {
    const { db } = this.deps
    const events = await repo.events(
      db,
      rows.map((r) => r.id),
    )
    const numbers = await repo.invoiceNumbers(
      db,
      rows.map((r) => r.invoiceId).filter((id): id is string => id !== null),
    )
    const eventsOf = groupBy(events, (e) => e.chargeId)
    return rows.map((r) => ({
      id: r.id,
      agreementId: r.agreementId,
      companyId: r.companyId,
      kind: r.kind,
      type: r.type,
      amount: r.amountOre,
      currency: r.currency,
      description: r.description,
      due: r.due,
      status: r.status,
      invoiceId: r.invoiceId,
      invoiceNumber: r.invoiceId ? (numbers.get(r.invoiceId) ?? null) : null,
      history: (eventsOf.get(r.id) ?? []).map((e) => ({ event: e.event, amount: e.amountOre, occurredAt: e.occurredAt })),
      version: r.version,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }))
  }

  /** A new status (and what Vipps says of it): logged with its agreement; the invoice follows a real change. */
  async setStatus(charge: ChargeRow, status: ChargeStatus, extra: Partial<ChargeRow> = {}) {
    const { db, clock } = this.deps
    const agreement = await this.agreementOf(charge)
    await repo.update(db, charge.id, { ...extra, status, version: charge.version + 1, updatedAt: this.nowIso() })
    await this.changed(charge, agreement)
    await recordChange(db, clock, 'agreement', agreement.id, 'upsert', { companyId: agreement.companyId, userId: agreement.memberUserId })
    if (status !== charge.status) await this.deps.invoicing.followCharge((await repo.byId(db, charge.id))!, charge.status)
  }

  async row(id: string) {
    return await repo.byId(this.deps.db, id)
  }

  async rowsOf(agreementId: string) {
    return await repo.ofAgreement(this.deps.db, agreementId)
  }

  /** A page of an agreement's charges (keyset, docs/API.md "Lists"). */
  async pageOf(agreementId: string, after: ChargePageKey | undefined, limit: number) {
    return await repo.pageOfAgreement(this.deps.db, agreementId, after, limit)
  }

  /** Charges at Vipps that may still move (the poll re-reads them). */
  async openAtVipps() {
    return await repo.openAtVipps(this.deps.db)
  }

  /**
   * A charge made by the product (a termination's FINAL, a ONE_TIME): the row, its invoice
   * (unless it is a new attempt on an invoice, `invoiceId`), its CREATE_CHARGE call queued for
   * Vipps (due now by `queuedAt`, the server's clock) and its change-log row, in the caller's transaction.
   */
  async create(agreement: Pick<ChargeAgreement, 'id' | 'companyId' | 'memberUserId' | 'paymentProviderId'>, input: NewCharge): Promise<ChargeRow> {
    const { db } = this.deps
    const id = input.id ?? newId()
    await repo.insert(db, {
      id,
      agreementId: agreement.id,
      companyId: agreement.companyId,
      kind: input.kind,
      type: input.type,
      amountOre: input.amountOre,
      description: input.description,
      due: input.due,
      invoiceId: input.invoiceId ?? null,
      createdAt: input.now,
      updatedAt: input.now,
    })
    await this.deps.invoicing.issueForCharge((await repo.byId(db, id))!)
    await queueProviderCall(db, {
      id: newId(),
      providerId: agreement.paymentProviderId,
      agreementId: agreement.id,
      chargeId: id,
      kind: 'CREATE_CHARGE',
      payload: {},
      at: this.nowIso(),
    })
    const charge = (await repo.byId(db, id))!
    await this.changed(charge, agreement)
    return charge
  }

  /** Vipps created the charge (the provider-outbox job): its Vipps id, PENDING there. */
  async createdAtVipps(charge: ChargeRow, vippsChargeId: string) {
    const { db } = this.deps
    const current = (await repo.byId(db, charge.id))!
    await repo.update(db, charge.id, { vippsChargeId, vippsStatus: 'PENDING', version: current.version + 1, updatedAt: this.nowIso() })
    await this.changed(current, await this.agreementOf(current))
  }

  /**
   * Applies Vipps' current state of a charge: its history once per event, and its status only
   * forward. Returns the charge as it is now, or undefined when it is not ours or nothing changed.
   */
  async observe(vc: ChargeResponseV3): Promise<ChargeRow | undefined> {
    const { db } = this.deps
    const charge = await repo.byVippsId(db, vc.id)
    if (!charge) return undefined
    const newEvents = await this.recordHistory(charge, vc)
    const mapped = CHARGE_STATUS[vc.status]
    const status = chargeStatusRank[mapped] > chargeStatusRank[charge.status] ? mapped : charge.status
    const extra = {
      vippsStatus: vc.status,
      capturedOre: vc.summary.captured,
      refundedOre: vc.summary.refunded,
      failureReason: vc.failureReason ?? charge.failureReason,
    }
    const same =
      status === charge.status &&
      extra.vippsStatus === charge.vippsStatus &&
      extra.capturedOre === charge.capturedOre &&
      extra.refundedOre === charge.refundedOre
    if (same && newEvents === 0) return undefined
    await this.setStatus(charge, status, extra)
    return repo.byId(db, charge.id)
  }

  /** The events of Vipps' history of a charge not recorded yet; answers how many were new. */
  private async recordHistory(charge: ChargeRow, vc: ChargeResponseV3): Promise<number> {
    const { db } = this.deps
    const known = new Set((await repo.events(db, [charge.id])).map((e) => e.eventKey))
    let newEvents = 0
    for (const h of vc.history) {
      const eventKey = `${h.event}:${h.occurred}:${h.idempotencyKey ?? ''}`
      if (known.has(eventKey)) continue
      await repo.insertEvent(db, {
        id: newId(),
        chargeId: charge.id,
        event: h.event,
        amountOre: h.amount,
        occurredAt: h.occurred,
        success: h.success,
        eventKey,
      })
      newEvents++
    }
    return newEvents
  }
}

export const createChargesService = (deps: ChargesServiceDeps) => new ChargesService(deps)

/** Scope of the charges an actor sees: those of the agreements they see. */
const scopeOf = (actor: Actor): ChargeScope => (isSuperAdmin(actor) ? 'all' : { companyIds: actor.companies.map((c) => c.id), memberUserId: actor.userId })

/** Charges in the offline store, with the same audience as their agreement. */
export const chargeSync = (charges: ChargesService): SyncedEntity => ({
  name: 'charge',
  snapshot: async (db, actor, afterId, limit) =>
    (await charges.views(await repo.page(db, scopeOf(actor), afterId, limit))).map((c) => ({
      id: c.id,
      version: c.version,
      data: c as unknown as Record<string, unknown>,
    })),
  load: async (db, actor, ids) => {
    const rows = await repo.byIds(db, ids)
    const readable = new Set(
      (await Promise.all([...new Set(rows.map((r) => r.agreementId))].map((id) => repo.agreementOf(db, id))))
        .filter((a): a is ChargeAgreement => a !== undefined && canReadAgreement(actor, a))
        .map((a) => a.id),
    )
    return (await charges.views(rows.filter((r) => readable.has(r.agreementId)))).map((c) => ({
      id: c.id,
      version: c.version,
      data: c as unknown as Record<string, unknown>,
    }))
  },
})
