import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import { v5 } from 'uuid'
import type { Db } from '../../db/client'
import { agreements } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { newId } from '../../lib/ids'
import type { Clock } from '../../lib/clock'
import { providerOutboxRepository, queueProviderCall } from '../../integrations/vipps/provider-outbox'
import type { DepositState } from '../../../shared/contract/lending'
import type { DepositDesk, LoanRow } from '../lending'
import type { AgreementsService } from '../agreements'
import type { BillingService } from './billing.service'
import { chargesRepository, type ChargeRow } from './charges.repository'
import { invoicesRepository } from './invoices.repository'
import { DomainError, ruleViolation } from '../../errors'
import { messages } from '../../../shared/i18n-messages'
import type { ChargesService } from './charges.service'
import type { Invoicing } from './invoicing'
import type { OneTimeCharges } from './one-time-charge'
import type { UsersService } from '../users'
import { localeOf } from '../../../shared/contract/values'
import { BOOKS_LOCALE } from '../../../shared/domain/books-language'
import { translate } from '../../i18n/i18n'

/** The namespace of the ids made from a loan's id (its deposit's charge and refund). */
const LOAN_DEPOSIT_NS = '5b0f3c1e-8f4a-4c57-9d1e-6a2b7c3d4e5f'
export const depositChargeIdOf = (loanId: string) => v5(`deposit-charge:${loanId}`, LOAN_DEPOSIT_NS)
export const depositRefundIdOf = (loanId: string) => v5(`deposit-refund:${loanId}`, LOAN_DEPOSIT_NS)
export const depositWriteOffIdOf = (loanId: string) => v5(`deposit-write-off:${loanId}`, LOAN_DEPOSIT_NS)

type Locale = ReturnType<typeof localeOf>
/** The charge's and refund's text in the borrower's language, as other charge texts (Vipps allows 45 characters). */
const describe = (title: string, locale: Locale) => translate(locale, /*i18n*/ { id: 'Deposit {title}' }, { title }).slice(0, 45)

export interface LoanDepositsDeps {
  db: Db
  clock: Clock
  sendClock?: Clock
  agreements: AgreementsService
  charges: ChargesService
  invoicing: Invoicing
  oneTime: OneTimeCharges
  billing: Pick<BillingService, 'issueRefund' | 'writeOffInvoice'>
  /** The payer's language for the provider's text. */
  users: Pick<UsersService, 'byId'>
}

/**
 * A loan's deposit through billing (decision 0064; lending's DepositDesk): a ONE_TIME charge on the
 * borrower's ACCEPTED agreement in the association (its invoice and provider-outbox row with it),
 * with an id made from the loan's, so a retried or double confirmation makes one charge; given back
 * by the refund path (credit note + REFUND_CHARGE) once collected, or the charge cancelled before
 * (CANCEL_CHARGE at Vipps, or never sent). All in the caller's transaction.
 */
export class LoanDeposits implements DepositDesk {
  constructor(private readonly deps: LoanDepositsDeps) {}

  private async localeOfUser(userId: string | null): Promise<Locale> {
    return localeOf(userId ? (await this.deps.users.byId(userId))?.language : undefined)
  }

  private sendNow() {
    return (this.deps.sendClock ?? this.deps.clock).now().toISOString()
  }

  private async agreementOf(userId: string, companyId: string) {
    const row = await this.deps.db
      .select({ id: agreements.id })
      .from(agreements)
      .where(
        and(
          eq(agreements.memberUserId, userId),
          eq(agreements.companyId, companyId),
          eq(agreements.status, 'ACCEPTED'),
          isNotNull(agreements.vippsAgreementId),
          isNull(agreements.terminationDate),
        ),
      )
      // Deterministic: the newest accepted agreement.
      .orderBy(desc(agreements.createdAt), desc(agreements.id))
      .limit(1)
      .get()
    return row ? await this.deps.agreements.rowOf(row.id) : undefined
  }

  /**
   * Refunds up to `amount` of a collected (EXECUTED) deposit charge: at most what is left of it after
   * refunds made through ordinary billing; null when nothing is left. The refund's id is made from the
   * loan's, so it is issued once (a second call answers the same id).
   */
  private async refund(loan: LoanRow, charge: ChargeRow, amount: number, title: string): Promise<string | null> {
    const { db } = this.deps
    const id = depositRefundIdOf(loan.id)
    if (await invoicesRepository.byRefundId(db, id)) return id
    const left = Math.max(0, charge.capturedOre - Math.max(await invoicesRepository.creditedOfCharge(db, charge.id), charge.refundedOre))
    const give = Math.min(amount, left)
    if (give <= 0) return null
    const a = (await this.deps.agreements.rowOf(charge.agreementId))!
    const locale = await this.localeOfUser(loan.borrowerUserId)
    await this.deps.billing.issueRefund(a, { id, chargeId: charge.id, amount: give, description: describe(title, locale) }, locale)
    return id
  }

  /** Writes off the unpaid invoice of a failed deposit charge (once: its credit note's id is made from the loan's). */
  private async writeOffFailed(loan: LoanRow, charge: ChargeRow) {
    const { db } = this.deps
    const id = depositWriteOffIdOf(loan.id)
    if (!charge.invoiceId || (await invoicesRepository.byId(db, id))) return
    const invoice = await invoicesRepository.byId(db, charge.invoiceId)
    if (!invoice || invoice.settlement) return
    try {
      const reason = translate(BOOKS_LOCALE, /*i18n*/ { id: 'Deposit for a finished loan' })
      await this.deps.billing.writeOffInvoice(invoice, { userId: null, fullName: 'Boligkasse' }, reason, id)
    } catch (error) {
      // Nothing owed on it any more (paid after all, or already settled): nothing to write off.
      if (!(error instanceof DomainError && error.code === 'INVALID_STATE')) throw error
    }
  }

  async canCollect(userId: string, companyId: string): Promise<boolean> {
    return (await this.agreementOf(userId, companyId)) !== undefined
  }

  async collect(loan: LoanRow, title: string): Promise<string> {
    const id = depositChargeIdOf(loan.id)
    if (await this.deps.charges.row(id)) return id
    const a = (await this.agreementOf(loan.borrowerUserId!, loan.companyId))!
    await this.deps.oneTime.create(a, { id, amount: loan.depositOre!, description: describe(title, await this.localeOfUser(loan.borrowerUserId)) })
    return id
  }

  async release(loan: LoanRow, title: string): Promise<string | null> {
    const charge = await this.deps.charges.row(loan.depositChargeId!)
    if (!charge) return null
    if (charge.status === 'EXECUTED') return await this.refund(loan, charge, loan.depositOre ?? charge.capturedOre, title)
    if (charge.status === 'FAILED') {
      // The deposit is no longer owed: its invoice leaves the debtor list (no reminders, no debt collection).
      await this.writeOffFailed(loan, charge)
      return null
    }
    if (charge.status !== 'CREATED' && charge.status !== 'RESERVED') return null
    await this.cancelCharge(charge)
    return null
  }

  /** A deposit charge not collected yet is called off: cancelled at Vipps, or never sent. */
  private async cancelCharge(charge: ChargeRow) {
    const { db, charges, invoicing } = this.deps
    const a = (await this.deps.agreements.rowOf(charge.agreementId))!
    if (charge.vippsChargeId) {
      await queueProviderCall(db, {
        id: newId(),
        providerId: a.paymentProviderId,
        agreementId: a.id,
        chargeId: charge.id,
        kind: 'CANCEL_CHARGE',
        payload: {},
        at: this.sendNow(),
      })
      return
    }
    await providerOutboxRepository.abandonCreate(db, charge.id, 'Not sent: the loan’s deposit was called off')
    await chargesRepository.update(db, charge.id, { status: 'CANCELED', version: charge.version + 1, updatedAt: this.deps.clock.now().toISOString() })
    const updated = (await charges.row(charge.id))!
    await charges.changed(updated, a)
    await invoicing.followCharge(updated, charge.status)
  }

  async refundPart(loan: LoanRow, amountOre: number, title: string): Promise<string | null> {
    const charge = await this.deps.charges.row(loan.depositChargeId!)
    if (!charge || charge.status !== 'EXECUTED') throw ruleViolation(messages.loanDepositNotCollected.id)
    return await this.refund(loan, charge, amountOre, title)
  }

  async states(loans: readonly LoanRow[]): Promise<Map<string, DepositState>> {
    const { db } = this.deps
    const chargeIds = loans.flatMap((l) => (l.depositChargeId ? [l.depositChargeId] : []))
    const refundIds = loans.flatMap((l) => (l.depositRefundId && l.depositRefundId !== 'KEPT' && l.depositRefundId !== 'BILLING' ? [l.depositRefundId] : []))
    const chargeOf = new Map((await chargesRepository.byIds(db, chargeIds)).map((c) => [c.id, c]))
    const notes =
      refundIds.length ?
        await db.select({ refundId: invoices.refundId, status: invoices.status }).from(invoices).where(inArray(invoices.refundId, refundIds)).all()
      : []
    const noteOf = new Map(notes.map((n) => [n.refundId!, n.status]))
    const out = new Map<string, DepositState>()
    for (const l of loans) {
      out.set(
        l.id,
        stateOf(l, l.depositChargeId ? chargeOf.get(l.depositChargeId)?.status : undefined, l.depositRefundId ? noteOf.get(l.depositRefundId) : undefined),
      )
    }
    return out
  }
}

export const createLoanDeposits = (deps: LoanDepositsDeps): DepositDesk => new LoanDeposits(deps)

/**
 * A loan's deposit state from its own status and billing's rows (decision 0064; unit tested by its
 * table of cases in loan-deposits.test.ts). A loan that ended before its deposit was asked for has
 * none; a charge being cancelled is CANCELLING, not QUEUED; KEPT only of a collected charge.
 */
export function stateOf(
  loan: Pick<LoanRow, 'status' | 'depositOre' | 'depositChargeId' | 'depositRefundId' | 'damageNote'>,
  charge: string | undefined,
  note: string | undefined,
): DepositState {
  if (!loan.depositOre) return 'NONE'
  const ended = loan.status === 'DECLINED' || loan.status === 'CANCELLED' || loan.status === 'RETURNED'
  if (!loan.depositChargeId || !charge) return ended ? 'NONE' : 'PENDING'
  // BILLING: ordinary refunds had already given all of it back when the loan ended.
  if (loan.depositRefundId === 'BILLING') return 'REFUNDED'
  if (loan.depositRefundId && loan.depositRefundId !== 'KEPT') return note === 'EXECUTED' ? 'REFUNDED' : 'REFUNDING'
  if (charge === 'EXECUTED') {
    if (loan.depositRefundId === 'KEPT') return 'KEPT'
    return loan.damageNote && loan.status === 'RETURNED' ? 'HELD' : 'COLLECTED'
  }
  // Ended without damage: its cancellation is queued (a damage report keeps it to be collected and settled).
  if (charge === 'CREATED' || charge === 'RESERVED') return ended && !(loan.status === 'RETURNED' && loan.damageNote) ? 'CANCELLING' : 'QUEUED'
  if (charge === 'CANCELED') return 'CANCELLED'
  return 'FAILED'
}
