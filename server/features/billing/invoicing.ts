import type { Database_ } from '../../db/client'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newBulkId } from '../../lib/ids'
import type { PartType, VatRate } from '../../../shared/domain/agreement-parts'
import type { ChargeStatus } from '../../../shared/domain/agreement-status'
import { articleNumberOf, creditShares, invoiceDueDate, invoiceStatusOfCharge, invoiceTotals, lineAmounts } from '../../../shared/domain/invoice'
import type { NoticesService } from '../notifications'
import { recordChange, writeChange } from '../sync'
import { billingRepository as st, type CompanySnapshot, type MemberSnapshot } from './billing.repository'
import { chargesRepository, type ChargeRow } from './charges.repository'
import { invoicesRepository } from './invoices.repository'
import { closedMonthOf } from '../bookkeeping'

export const UNIT_OF_PERIOD = { DAILY: 'DAY', WEEKLY: 'WEEK', MONTHLY: 'MONTH', YEARLY: 'YEAR' } as const

export interface LineSource {
  type: PartType
  description: string
  grossOre: number
  vatRate: VatRate
  unit: string
  /** A credit note's line: the invoice line it credits (position and article number). */
  credits?: { position: number; articleNumber: string }
}

/** Named points of a billing run where tests simulate a crash. */
export type FaultPoint = (point: 'charge' | 'invoice' | 'outbox' | 'agreement') => void

/** What an invoice or credit note is issued with. */
export interface IssueInput {
  kind: 'INVOICE' | 'CREDIT_NOTE'
  id?: string
  agreement: { id: string; companyId: string; memberUserId: string }
  chargeId: string
  description: string
  lines: LineSource[]
  company: CompanySnapshot
  member: MemberSnapshot
  paymentType: string
  creditedInvoiceId?: string | null
  refundId?: string | null
  /** An invoice: its charge's due date, which becomes the invoice's (one rule, `invoiceDueDate`). */
  chargeDue: string
  status?: 'CREATED'
  now: string
  today: string
}

export interface InvoicingDeps {
  database: Database_
  clock: Clock
  notices: NoticesService
  faultPoint?: FaultPoint
  /** Where a status report for a document in a closed month is logged (decision 0067). */
  log?: { warn: (o: object, msg?: string) => void }
}

/**
 * Invoices of charges (docs/DOMAIN.md "Billing rules"): issuing an invoice or credit note
 * (numbered in the caller's transaction), the invoice of a charge made elsewhere, and an invoice
 * following its charge's status (with the notices of a failed payment), and a refund's credit
 * note following what Vipps answered. The charges service and the provider-outbox job call this
 * inside their transactions; the billing service issues through it.
 */
export class Invoicing {
  private readonly db: Database_['db']

  constructor(private readonly deps: InvoicingDeps) {
    this.db = deps.database.db
  }

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  fault(point: Parameters<FaultPoint>[0]): void {
    this.deps.faultPoint?.(point)
  }

  invoiceChanged(invoice: { id: string; companyId: string; memberUserId: string }) {
    return recordChange(this.db, this.deps.clock, 'invoice', invoice.id, 'upsert', { companyId: invoice.companyId, userId: invoice.memberUserId })
  }

  async issue(input: IssueInput): Promise<{ id: string; number: number }> {
    const { db } = this
    const id = input.id ?? newBulkId()
    const number = await st.nextInvoiceNumber(db, input.agreement.companyId)
    this.fault('invoice')
    const totals = invoiceTotals(input.lines)
    await st.insertInvoice(db, {
      id,
      companyId: input.agreement.companyId,
      kind: input.kind,
      number,
      agreementId: input.agreement.id,
      chargeId: input.chargeId,
      memberUserId: input.agreement.memberUserId,
      creditedInvoiceId: input.creditedInvoiceId ?? null,
      refundId: input.refundId ?? null,
      issueDate: input.today,
      dueDate: invoiceDueDate({ kind: input.kind, chargeDue: input.chargeDue, issueDate: input.today }),
      status: 'CREATED',
      description: input.description,
      company: input.company,
      member: input.member,
      ...totals,
      paymentType: input.paymentType,
      now: input.now,
    })
    for (const [position, l] of input.lines.entries()) {
      const a = lineAmounts(l)
      await st.insertLine(db, {
        invoiceId: id,
        position,
        id: `${id}:${position}`,
        articleNumber: l.credits?.articleNumber ?? articleNumberOf(position),
        type: l.type,
        description: l.description,
        unit: l.unit,
        vatRate: l.vatRate,
        ...a,
        creditedPosition: l.credits?.position ?? null,
      })
    }
    await writeChange(db, 'invoice', id, 'upsert', { companyId: input.agreement.companyId, userId: input.agreement.memberUserId }, input.now)
    return { id, number }
  }

  async partLines(agreementId: string, unit: string): Promise<LineSource[]> {
    return (await st.parts(this.db, agreementId)).map((p) => ({
      type: p.type,
      description: p.description,
      grossOre: p.price_ore,
      vatRate: p.vat_rate as VatRate,
      unit,
    }))
  }

  async snapshots(agreement: { id: string; companyId: string; memberUserId: string }) {
    const company = await st.company(this.db, agreement.companyId)
    const member = await st.member(this.db, agreement.memberUserId, agreement.id)
    if (!company || !member) throw new Error(`billing: agreement ${agreement.id} lacks its company or member`)
    return { company, member }
  }

  /** The invoice of a charge made elsewhere (a FINAL charge of a termination, a ONE_TIME charge), in its transaction. */
  async issueForCharge(charge: ChargeRow) {
    if (charge.invoiceId) return
    const a = (await chargesRepository.agreementOf(this.db, charge.agreementId))!
    const lines: LineSource[] =
      charge.kind === 'ONE_TIME' ?
        [{ type: 'OTHER', description: charge.description, grossOre: charge.amountOre, vatRate: 0, unit: 'PIECE' }]
      : await this.partLines(a.id, UNIT_OF_PERIOD[a.paymentPeriod])
    // A last payment for part of a period (or several) spreads its amount over the parts in proportion.
    const partsTotal = lines.reduce((sum, l) => sum + l.grossOre, 0)
    if (charge.kind === 'FINAL' && partsTotal !== charge.amountOre && partsTotal > 0) {
      const shares = creditShares(
        lines.map((l) => l.grossOre),
        charge.amountOre,
      )
      lines.forEach((l, i) => (l.grossOre = shares[i]!))
    }
    const agreement = { id: a.id, companyId: a.companyId, memberUserId: a.memberUserId }
    const now = this.nowIso()
    const invoice = await this.issue({
      kind: 'INVOICE',
      agreement,
      chargeId: charge.id,
      description: charge.description,
      lines,
      ...(await this.snapshots(agreement)),
      paymentType: charge.kind,
      chargeDue: charge.due,
      now,
      today: todayInCopenhagen(this.deps.clock),
    })
    await chargesRepository.update(this.db, charge.id, { invoiceId: invoice.id })
  }

  /**
   * The invoice follows its charge. A retry (a later charge on an earlier invoice, decision 0042) moves
   * the invoice only when it collected the money: a retry that fails or is cancelled leaves the
   * invoice unpaid, as it was. A charge that just failed starts the overdue steps and tells the
   * member and the company's admin staff.
   */
  async followCharge(charge: ChargeRow, previous: ChargeStatus) {
    const { db } = this
    const now = this.nowIso()
    const today = todayInCopenhagen(this.deps.clock)
    const invoice = await invoicesRepository.invoiceOfCharge(db, charge)
    const retry = invoice !== undefined && invoice.chargeId !== charge.id
    // A late report about an invoice paid or settled in a closed month (decision 0067): the books of
    // that month stay as they were; it is logged and left, so the worker moves on instead of failing.
    const closed = invoice && (await closedMonthOf(db, invoice.companyId, [invoice.paymentDate, invoice.settledOn]))
    if (invoice && closed && invoiceStatusOfCharge(charge.status) !== invoice.status)
      this.deps.log?.warn(
        { invoiceId: invoice.id, chargeId: charge.id, chargeStatus: charge.status, closedMonth: closed },
        'bookkeeping: a charge status for an invoice in a closed month was left unrecorded',
      )
    if (invoice && !closed && (!retry || charge.status === 'EXECUTED')) {
      await invoicesRepository.update(db, invoice.id, {
        status: invoiceStatusOfCharge(charge.status),
        paymentStatus: charge.status,
        paymentDate: charge.status === 'EXECUTED' ? today : invoice.paymentDate,
        version: invoice.version + 1,
        updatedAt: now,
      })
      await this.invoiceChanged(invoice)
    }
    if ((charge.status === 'FAILED' || charge.status === 'DECLINED') && previous !== 'FAILED' && previous !== 'DECLINED') {
      await chargesRepository.update(db, charge.id, { failedOn: today, overdueStep: 0 })
      await this.tellFailed(charge)
    }
  }

  /** A charge just failed: the member and the company's admin staff are told. */
  private async tellFailed(charge: ChargeRow) {
    const { notices } = this.deps
    const a = (await chargesRepository.agreementOf(this.db, charge.agreementId))!
    const values = { externalId: String(a.externalSeq), due: charge.due }
    await notices.tell(a.memberUserId, {
      type: 'error',
      title: /*i18n*/ { id: 'A payment failed' },
      message: /*i18n*/ {
        id: 'The payment due {due} for agreement {externalId} could not be collected. Please make sure it can be paid in Vipps MobilePay.',
      },
      values,
      actionUrl: `/agreements/${a.id}`,
      actionText: /*i18n*/ { id: 'Open agreement' },
    })
    for (const userId of await st.adminStaffOf(this.db, a.companyId))
      if (userId !== a.memberUserId)
        await notices.tell(userId, {
          type: 'warning',
          title: /*i18n*/ { id: 'Agreement {externalId} is overdue' },
          message: /*i18n*/ { id: 'The payment due {due} for agreement {externalId} failed.' },
          values,
          actionUrl: `/agreements/${a.id}`,
          actionText: /*i18n*/ { id: 'Open agreement' },
        })
  }

  /** The refund reached Vipps (or Vipps refused it): its credit note says so. */
  async refundSent({ outboxId, ok }: { outboxId: string; ok: boolean }) {
    const { db } = this
    const note = await invoicesRepository.byRefundId(db, outboxId)
    if (!note) return
    const closed = await closedMonthOf(db, note.companyId, [note.paymentDate, note.settledOn])
    if (closed) {
      this.deps.log?.warn(
        { creditNoteId: note.id, ok, closedMonth: closed },
        'bookkeeping: a refund result for a credit note in a closed month was left unrecorded',
      )
      return
    }
    const status = ok ? 'EXECUTED' : 'FAILED'
    await invoicesRepository.update(db, note.id, {
      status,
      paymentStatus: status,
      paymentDate: ok ? todayInCopenhagen(this.deps.clock) : null,
      version: note.version + 1,
      updatedAt: this.nowIso(),
    })
    await this.invoiceChanged(note)
  }
}

export const createInvoicing = (deps: InvoicingDeps) => new Invoicing(deps)
