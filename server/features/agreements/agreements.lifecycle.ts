import type { Db } from '../../db/client'
import { DomainError } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { queueProviderCall, type ProviderCallKind } from '../../integrations/vipps/provider-outbox'
import { vippsIdempotencyKey } from '../../integrations/vipps/idempotency-key'
import type { AgreementResponseV3, DraftAgreementV3, TimePeriod } from '../../integrations/vipps/vipps.schemas'
import type { PaymentPeriod } from '../../../shared/domain/agreement-parts'
import { isChargeSettled, nextAgreementStatus, type AgreementAction } from '../../../shared/domain/agreement-status'
import { messages } from '../../../shared/i18n-messages'
import type { ChargesService } from '../billing'
import type { CompaniesService } from '../companies'
import type { ProvidersService } from '../payment-providers'
import { recordChange } from '../sync'
import type { AgreementNotices } from './agreements.notices'
import { agreementsRepository as repo, type AgreementRow } from './agreements.repository'
import { transaction } from '../../db/client'

const VIPPS_INTERVAL: Record<PaymentPeriod, TimePeriod> = {
  DAILY: { unit: 'DAY', count: 1 },
  WEEKLY: { unit: 'WEEK', count: 1 },
  MONTHLY: { unit: 'MONTH', count: 1 },
  YEARLY: { unit: 'YEAR', count: 1 },
}

export function notAllowed(row: AgreementRow): DomainError {
  return new DomainError('INVALID_STATE', messages.agreementTransitionNotAllowed.id, { values: { status: row.status } })
}

/** The status an action moves the agreement to (shared/domain/agreement-status.ts); 409 when it may not. */
export function transition(row: AgreementRow, action: AgreementAction) {
  const to = nextAgreementStatus(row.status, action)
  if (!to) throw notAllowed(row)
  return to
}

export interface AgreementLifecycleDeps {
  db: Db
  clock: Clock
  lock: WriteLock
  publicUrl: string
  companies: CompaniesService
  providers: ProvidersService
  charges: ChargesService
  notices: AgreementNotices
}

/**
 * An agreement's life at Vipps and in time: the change-log entry of every change, its calls queued
 * for Vipps (stop, price update), the draft Vipps gets, what Vipps says of it (webhooks and the
 * poll, through vipps-observer.ts), the end of a termination whose last payment settled, the
 * CLOSED step after the end, and the demo agreements connected to the built-in emulator.
 */
export class AgreementLifecycle {
  constructor(private readonly deps: AgreementLifecycleDeps) {}

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  changed(row: Pick<AgreementRow, 'id' | 'companyId' | 'memberUserId'>) {
    return recordChange(this.deps.db, this.deps.clock, 'agreement', row.id, 'upsert', { companyId: row.companyId, userId: row.memberUserId })
  }

  async enqueue(row: AgreementRow, kind: ProviderCallKind, payload: Record<string, unknown>) {
    await queueProviderCall(this.deps.db, {
      id: newId(),
      providerId: row.paymentProviderId,
      agreementId: row.id,
      chargeId: null,
      kind,
      payload,
      at: this.nowIso(),
    })
  }

  /** A terminating agreement whose final charge settled: stop it at Vipps and end it. */
  async finishTermination(agreementId: string) {
    const row = await repo.byId(this.deps.db, agreementId)
    if (!row || row.status !== 'ACCEPTED' || !row.terminationDate) return
    if (row.vippsAgreementId) await this.enqueue(row, 'STOP_AGREEMENT', {})
    await repo.update(this.deps.db, row.id, { status: transition(row, 'vippsStopped'), version: row.version + 1, updatedAt: this.nowIso() })
    await this.changed(row)
  }

  // ---- what Vipps says (webhooks and the poll)

  /** Applies Vipps' current state of an agreement; a late or repeated observation changes nothing. */
  async observeAgreement(va: AgreementResponseV3) {
    const { db, clock } = this.deps
    let row = await repo.byVippsId(db, va.id)
    if (!row) return
    // Approved and then stopped before we looked (events come in any order): it was accepted
    // (Vipps set `start`), so it passes through ACCEPTED rather than counting as rejected.
    if (va.status === 'STOPPED' && va.start && row.status === 'PENDING') {
      await this.observeAgreement({ ...va, status: 'ACTIVE' })
      row = (await repo.byId(db, row.id))!
    }
    const action = vippsActionOf(va, row)
    const to = action && nextAgreementStatus(row.status, action)
    if (!to) return
    await repo.update(db, row.id, {
      status: to,
      ...(to === 'CANCELED' && !row.terminationDate ? { terminationDate: todayInCopenhagen(clock) } : {}),
      version: row.version + 1,
      updatedAt: this.nowIso(),
    })
    await this.changed(row)
    if (to === 'ACCEPTED' || to === 'REJECTED' || to === 'EXPIRED') await this.deps.notices.staff(row, to)
  }

  /** CANCELED agreements whose termination date has passed, with nothing open, become CLOSED. */
  async closeEnded() {
    const { db, clock, charges } = this.deps
    const today = todayInCopenhagen(clock)
    for (const row of await repo.withStatus(db, 'CANCELED')) {
      if (!row.terminationDate || row.terminationDate >= today) continue
      if ((await charges.rowsOf(row.id)).some((c) => !isChargeSettled(c.status))) continue
      await repo.update(db, row.id, { status: transition(row, 'close'), version: row.version + 1, updatedAt: this.nowIso() })
      await this.changed(row)
    }
  }

  async draftFor(row: AgreementRow): Promise<DraftAgreementV3> {
    const company = (await this.deps.companies.byId(row.companyId))!
    const member = (await repo.member(this.deps.db, row.memberUserId))!
    const phone = member.mobileNumber?.replace(/\D/g, '')
    return {
      pricing: { type: 'LEGACY', currency: 'DKK', amount: row.priceOre },
      interval: VIPPS_INTERVAL[row.paymentPeriod],
      productName: `${company.acronym} ${row.externalSeq}`.slice(0, 45),
      merchantRedirectUrl: `${this.deps.publicUrl}/agreements/${row.id}`,
      merchantAgreementUrl: `${this.deps.publicUrl}/agreements/${row.id}`,
      ...(phone && phone.length >= 8 ? { phoneNumber: phone } : {}),
      externalId: row.id,
    }
  }

  /** PENDING agreements with a Vipps agreement (the poll re-reads them). */
  async pendingAtVipps() {
    return (await repo.withStatus(this.deps.db, 'PENDING')).filter((a) => a.vippsAgreementId)
  }

  /**
   * Demo data (server/db/seed.ts, docs/decisions/0036-an-accepted-agreement-that-is-not-collected-says-so.md): seeded ACCEPTED agreements get their Vipps agreement
   * the way a member's acceptance makes one — created through the Recurring API from the
   * agreement's draft, then approved (`approve` stands in for the member on the confirmation
   * page) — so billing collects them like any other. The Idempotency-Key comes from `seed` and the id, so a
   * start interrupted halfway finds the same Vipps agreement. Returns how many were connected.
   */
  async connectSeeded(ids: string[], approve: (vippsAgreementId: string) => Promise<void>): Promise<number> {
    let connected = 0
    for (const id of ids) if (await this.connectOneSeeded(id, approve)) connected++
    return connected
  }

  /** One seeded agreement of connectSeeded: true when this call linked it to its Vipps agreement. */
  private async connectOneSeeded(id: string, approve: (vippsAgreementId: string) => Promise<void>): Promise<boolean> {
    const { db, lock, providers } = this.deps
    const prep = await lock.run(async () => {
      const row = await repo.byId(db, id)
      const provider = row && (await providers.byId(row.paymentProviderId))
      if (!row || !provider || row.status !== 'ACCEPTED' || row.vippsAgreementId) return undefined
      return { provider, draft: await this.draftFor(row) }
    })
    if (!prep) return false
    const client = providers.vippsClient(prep.provider)
    const created = await client.createAgreement(prep.draft, vippsIdempotencyKey('seed', id))
    if ((await client.getAgreement(created.agreementId)).status === 'PENDING') await approve(created.agreementId)
    const va = await client.getAgreement(created.agreementId)
    if (va.status !== 'ACTIVE') throw new Error(`demo agreement ${id}: Vipps agreement ${va.id} is ${va.status}`)
    // Counted after the commit: on PostgreSQL the transaction may run twice.
    return await lock.run(() =>
      transaction(db, async () => {
        const current = (await repo.byId(db, id))!
        if (current.vippsAgreementId) return false
        await repo.update(db, id, { vippsAgreementId: va.id, version: current.version + 1, updatedAt: this.nowIso() })
        await this.changed(current)
        return true
      }),
    )
  }
}

export const createAgreementLifecycle = (deps: AgreementLifecycleDeps) => new AgreementLifecycle(deps)

/** The action Vipps' status of an agreement stands for; a STOPPED one still PENDING here was rejected. */
function vippsActionOf(va: AgreementResponseV3, row: AgreementRow): AgreementAction | undefined {
  return (
    va.status === 'ACTIVE' ? 'vippsActivated'
    : va.status === 'EXPIRED' ? 'vippsExpired'
    : va.status === 'STOPPED' ?
      row.status === 'PENDING' ?
        'vippsRejected'
      : 'vippsStopped'
    : undefined
  )
}
