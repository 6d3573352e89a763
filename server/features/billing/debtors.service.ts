import { snapshot, type Database_ } from '../../db/client'
import { conflict, forbidden, invalidState, notFound, ruleViolation } from '../../errors'
import { decodeCursor, encodeCursor } from '../../http/paging'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { providerOutboxRepository, queueProviderCall } from '../../integrations/vipps/provider-outbox'
import {
  retryBlockerMessages,
  type Debtor,
  type DebtorPage,
  type MarkPaidRequest,
  type RetryBlocker,
  type RetryRequest,
  type WriteOffRequest,
} from '../../../shared/contract/billing'
import type { Charge } from '../../../shared/contract/agreements'
import { BOOKS_LOCALE } from '../../../shared/domain/books-language'
import { translate } from '../../i18n/i18n'
import { daysBetween } from '../../../shared/domain/billing-period'
import { lineShares, openAmountOf, type InvoiceSettlement } from '../../../shared/domain/invoice'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { canReadAgreement, isSuperAdmin, roleIn } from '../../access/policy'
import { assertCompanyInScope } from '../companies'
import type { AgreementsService } from '../agreements'
import type { CompaniesService } from '../companies'
import type { UsersService } from '../users'
import { chargesRepository } from './charges.repository'
import type { ChargesService } from './charges.service'
import { creditNoteLines, linesLeft } from './credit-lines'
import { debtorsRepository } from './debtors.repository'
import { assertMoneyDate, assertMonthsOpen } from '../bookkeeping'
import { invoicesRepository, type InvoiceRow } from './invoices.repository'
import type { Invoicing, LineSource } from './invoicing'
import type { OneTimeCharges } from './one-time-charge'

type Settler = Pick<Actor, 'fullName'> & { userId: string | null }

export interface DebtorActionsDeps {
  database: Database_
  clock: Clock
  /** The provider-outbox sender's clock: a cancel at Vipps is due by it. */
  sendClock: Clock
  agreements: AgreementsService
  charges: ChargesService
  invoicing: Invoicing
  companies: CompaniesService
  users: UsersService
  oneTime: OneTimeCharges
  config: { reminderDays: number[]; debtCollectionDays: number }
}

/**
 * Debtors (docs/decisions/0042-unpaid-stays-visible.md, docs/PRODUCT.md §2 "Debtors"): the overview of a company's unpaid invoices, and what company admin staff
 * do about one — collect it again (a retry), record it paid outside Vipps, or write it off.
 * Each runs in the caller's write transaction.
 */
export class DebtorActions {
  private readonly db: Database_['db']

  constructor(private readonly deps: DebtorActionsDeps) {
    this.db = deps.database.db
  }

  private nowIso() {
    return this.deps.clock.now().toISOString()
  }

  private sendNow() {
    return this.deps.sendClock.now().toISOString()
  }

  /**
   * The invoice of a debtor action: 404 unless the actor may read it (its company's staff, its
   * member, the super admin), 403 unless they are company admin staff there or the super admin.
   */
  private async staffInvoice(actor: Actor, invoiceId: string): Promise<InvoiceRow> {
    const row = await invoicesRepository.byId(this.db, invoiceId)
    if (!row || !canReadAgreement(actor, row)) throw notFound(messages.invoiceNotFound.id)
    if (!isSuperAdmin(actor)) {
      const role = roleIn(actor, row.companyId)
      if (!role || !isCompanyAdminStaff(role)) throw forbidden()
    }
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  private async creditedOf(invoiceId: string): Promise<number> {
    return await invoicesRepository.creditedOfInvoice(this.db, invoiceId)
  }

  /** The charges still trying to collect an invoice: its own and any retry, CREATED or RESERVED. */
  private async openChargesOf(invoice: InvoiceRow) {
    return (await this.deps.charges.rowsOf(invoice.agreementId)).filter(
      (c) => (c.id === invoice.chargeId || c.invoiceId === invoice.id) && (c.status === 'CREATED' || c.status === 'RESERVED'),
    )
  }

  /** An unpaid invoice (the debtor rule) with what is still owed on it; 409 otherwise. */
  private async unpaid(invoice: InvoiceRow): Promise<{ open: number }> {
    const today = todayInCopenhagen(this.deps.clock)
    const open = openAmountOf(invoiceInput(invoice), await this.creditedOf(invoice.id), today)
    if (open <= 0) throw invalidState(messages.invoiceNotUnpaid.id)
    return { open }
  }

  private async retryBlocker(invoice: InvoiceRow, a: Awaited<ReturnType<AgreementsService['rowOf']>>): Promise<RetryBlocker | null> {
    const retries = (await this.deps.charges.rowsOf(invoice.agreementId)).filter((c) => c.invoiceId === invoice.id && c.id !== invoice.chargeId)
    if (retries.some((c) => c.status === 'CREATED' || c.status === 'RESERVED')) return 'UNDER_WAY'
    if (invoice.status !== 'FAILED') return 'COLLECTING'
    if (!a || a.status !== 'ACCEPTED' || !a.vippsAgreementId) return 'AGREEMENT_INACTIVE'
    return null
  }

  /**
   * Stops what still tries to collect a settled invoice: a charge at Vipps is cancelled there
   * (CANCEL_CHARGE through the provider outbox); one not sent yet is never sent and is CANCELED.
   */
  private async stopCollecting(invoice: InvoiceRow) {
    const { db } = this
    const { agreements, charges, invoicing } = this.deps
    const a = await agreements.rowOf(invoice.agreementId)
    if (!a) return
    for (const charge of await this.openChargesOf(invoice)) {
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
        continue
      }
      await providerOutboxRepository.abandonCreate(db, charge.id, 'Not sent: the invoice was settled outside Vipps MobilePay')
      await chargesRepository.update(db, charge.id, { status: 'CANCELED', version: charge.version + 1, updatedAt: this.nowIso() })
      const updated = (await charges.row(charge.id))!
      await charges.changed(updated, a)
      await invoicing.followCharge(updated, charge.status)
    }
  }

  private async settle(invoice: InvoiceRow, actor: Settler, kind: InvoiceSettlement, note: string, on = todayInCopenhagen(this.deps.clock)) {
    await invoicesRepository.update(this.db, invoice.id, {
      settlement: kind,
      settledOn: on,
      settlementNote: note,
      settledByUserId: actor.userId,
      settledByName: actor.fullName,
      version: invoice.version + 1,
      updatedAt: this.nowIso(),
    })
    await this.deps.invoicing.invoiceChanged(invoice)
  }

  /**
   * Writes off an unpaid invoice (the body of `writeOff`, without the staff check): also used by
   * lending when a loan ends while its deposit charge failed (decision 0064), `by` then naming the
   * system. Answers the credit note.
   */
  async writeOffInvoice(invoice: InvoiceRow, by: Settler, settlementNote: string, creditNoteId?: string): Promise<InvoiceRow> {
    const { db } = this
    const input = { note: settlementNote, id: creditNoteId }
    const actor = by
    const { open } = await this.unpaid(invoice)
    // The write-off's day (today) settles the invoice: not before it was issued, not in the closed period (decision 0079).
    await assertMoneyDate(db, invoice, todayInCopenhagen(this.deps.clock))
    await this.stopCollecting(invoice)
    const perLine = await linesLeft(db, invoice.id)
    const shares = lineShares(
      perLine.map((l) => l.left),
      open,
    )
    const lines: LineSource[] =
      shares && perLine.length ?
        creditNoteLines(perLine, shares)
      : [{ type: 'OTHER', description: invoice.description, grossOre: open, vatRate: 0, unit: 'PIECE' }]
    const now = this.nowIso()
    const today = todayInCopenhagen(this.deps.clock)
    const id = input.id ?? newId()
    await this.deps.invoicing.issue({
      kind: 'CREDIT_NOTE',
      id,
      agreement: { id: invoice.agreementId, companyId: invoice.companyId, memberUserId: invoice.memberUserId },
      chargeId: invoice.chargeId,
      description: translate(BOOKS_LOCALE, /*i18n*/ { id: 'Write-off of invoice {number}' }, { number: String(invoice.number) }).slice(0, 200),
      lines,
      company: { id: invoice.companyId, name: invoice.companyName, acronym: '', cvr: invoice.companyCvr, address: invoice.companyAddress },
      member: {
        name: invoice.consumerName,
        email: invoice.consumerEmailAddress,
        phone: invoice.consumerPhoneNumber,
        address: invoice.consumerAddress,
        language: 'EN',
      },
      paymentType: 'WRITE_OFF',
      creditedInvoiceId: invoice.id,
      chargeDue: today,
      now,
      today,
    })
    const note = (await invoicesRepository.byId(db, id))!
    // No money moves: the credit note has no payment (status stays CREATED, payment null).
    await invoicesRepository.update(db, id, { paymentStatus: null })
    await this.settle(note, actor, 'WRITTEN_OFF', input.note)
    await this.settle((await invoicesRepository.byId(db, invoice.id))!, actor, 'WRITTEN_OFF', input.note)
    return (await invoicesRepository.byId(db, id))!
  }

  /**
   * The debtor overview: the company's unpaid invoices (`isUnpaid`), oldest due date
   * first, a page at a time, each with what is owed, days overdue, the overdue steps taken and
   * whether a retry is possible. Company admin staff and the super admin; a board member 403;
   * a company the caller has nothing to do with 404.
   */
  async debtors(actor: Actor, query: ReturnType<typeof parseDebtorQuery>): Promise<DebtorPage> {
    const { db } = this
    const { config } = this.deps
    await assertCompanyInScope(db, actor, query.companyId)
    if (!isSuperAdmin(actor)) {
      const role = roleIn(actor, query.companyId)
      if (!role || !isCompanyAdminStaff(role)) throw forbidden()
    }
    const today = todayInCopenhagen(this.deps.clock)
    const [afterDue, afterId] = query.after ?? ['', '']
    const base = { companyId: query.companyId, today, agreementId: query.agreementId ?? null }
    // The page and the totals from one moment.
    const [rows, total] = await snapshot(db, async () => [
      await debtorsRepository.page(db, { ...base, afterDue, afterId, limit: query.limit + 1 }),
      await debtorsRepository.totals(db, base),
    ])
    const page = rows.slice(0, query.limit)
    const last = page.at(-1)
    return {
      items: page.map((r) => debtorOf(r, today, config.reminderDays.length)),
      nextCursor: rows.length > query.limit && last ? encodeCursor([last.due_date, last.id]) : null,
      total,
      reminderDays: [...config.reminderDays].sort((x, y) => x - y),
      debtCollectionDays: config.debtCollectionDays,
    }
  }

  /**
   * Retry an unpaid invoice: a new ONE_TIME charge for what is owed, through the
   * one-time charge path and the provider outbox, as a new attempt on the same invoice (no second
   * invoice). Only once the invoice's charge has failed, with nothing else under way, on an
   * agreement Vipps can charge. A client-made `id` makes a repeated request answer the same
   * charge; the Idempotency-Key replays a lost answer.
   */
  async retry(actor: Actor, invoiceId: string, input: RetryRequest): Promise<Charge> {
    const { charges, agreements } = this.deps
    const invoice = await this.staffInvoice(actor, invoiceId)
    if (input.id) {
      const existing = await charges.row(input.id)
      if (existing) {
        if (existing.invoiceId === invoice.id && existing.id !== invoice.chargeId && existing.kind === 'ONE_TIME') return (await charges.views([existing]))[0]!
        throw conflict(messages.billingRecordExists.id)
      }
    }
    const { open } = await this.unpaid(invoice)
    await assertMonthsOpen(this.db, invoice.companyId, [invoice.paymentDate, invoice.settledOn])
    const a = await agreements.rowOf(invoice.agreementId)
    const blocked = await this.retryBlocker(invoice, a)
    if (blocked) throw invalidState(retryBlockerMessages[blocked].id)
    return this.deps.oneTime.create(a!, { id: input.id, amount: open, description: invoice.description.slice(0, 45), invoiceId: invoice.id })
  }

  /**
   * The member paid an unpaid invoice another way: the invoice records it with the
   * note, the date and who; anything still trying to collect it at Vipps is cancelled. The
   * invoice's status keeps following Vipps, so statistics count only what Vipps collected.
   */
  async markPaidOutside(actor: Actor, invoiceId: string, input: MarkPaidRequest): Promise<InvoiceRow> {
    const { db } = this
    const invoice = await this.staffInvoice(actor, invoiceId)
    if (invoice.settlement === 'PAID_OUTSIDE' && invoice.settlementNote === input.note) return invoice
    await this.unpaid(invoice)
    // The day the member paid (decisions 0067 and 0079): not in the future, not before the invoice was issued,
    // and not in the closed period of the books (every month up to the latest closed one).
    const paidOn = input.paidOn ?? todayInCopenhagen(this.deps.clock)
    if (paidOn > todayInCopenhagen(this.deps.clock)) throw ruleViolation(messages.bookkeepingPaidOnInFuture.id, 'paidOn')
    await assertMoneyDate(db, invoice, paidOn, 'paidOn')
    await this.stopCollecting(invoice)
    await this.settle((await invoicesRepository.byId(db, invoice.id))!, actor, 'PAID_OUTSIDE', input.note, paidOn)
    return (await invoicesRepository.byId(db, invoice.id))!
  }

  /**
   * Write off an unpaid invoice: a credit note for what is owed, over the invoice's
   * lines in proportion (each with its line's description), titled in the language of the books (shared/domain/books-language.ts); no
   * money moves, so the credit note is not EXECUTED and statistics do not count it. Both
   * documents carry the settlement WRITTEN_OFF with the note; collection at Vipps is stopped.
   */
  async writeOff(actor: Actor, invoiceId: string, input: WriteOffRequest): Promise<InvoiceRow> {
    const invoice = await this.staffInvoice(actor, invoiceId)
    if (input.id) {
      const existing = await invoicesRepository.byId(this.db, input.id)
      if (existing) {
        if (existing.creditedInvoiceId === invoice.id && existing.settlement === 'WRITTEN_OFF') return existing
        throw conflict(messages.billingRecordExists.id)
      }
    }
    return await this.writeOffInvoice(invoice, actor, input.note, input.id)
  }
}

export const createDebtorActions = (deps: DebtorActionsDeps) => new DebtorActions(deps)

/** One row of the debtor overview, `steps` the number of reminders before debt collection. */
function debtorOf(r: Awaited<ReturnType<typeof debtorsRepository.page>>[number], today: string, steps: number): Debtor {
  const step = r.overdue_step ?? 0
  const retryBlocked: RetryBlocker | null =
    r.retry_pending ? 'UNDER_WAY'
    : r.status !== 'FAILED' ? 'COLLECTING'
    : r.agreement_status !== 'ACCEPTED' || !r.vipps_agreement_id ? 'AGREEMENT_INACTIVE'
    : null
  return {
    invoiceId: r.id,
    invoiceNumber: String(r.number),
    name: r.name,
    agreementId: r.agreement_id,
    agreementExternalId: r.external_seq === null ? null : String(r.external_seq),
    memberUserId: r.member_user_id,
    memberName: r.consumer_name,
    address: r.consumer_address,
    dueDate: r.due_date,
    daysOverdue: Math.max(0, daysBetween(r.due_date, today)),
    amount: Math.max(0, r.total_ore - r.credited_ore),
    status: r.status,
    remindersSent: Math.min(step, steps),
    debtCollection: r.debt_collection_since !== null || step > steps,
    retryPending: r.retry_pending === 1,
    retryBlocked,
  }
}

/** An invoice row as the shared debtor rules read it. */
const invoiceInput = (r: InvoiceRow) => ({
  kind: r.kind,
  status: r.status,
  dueDate: r.dueDate,
  totalAmount: r.totalOre,
  settlement: r.settlement ? { kind: r.settlement } : null,
})

/** The list query with its cursor (the last row's due date and id, docs/API.md "Lists") decoded; a cursor that is not one of ours answers 400. */
export function parseDebtorQuery(query: { companyId: string; agreementId?: string; cursor?: string; limit: number }) {
  const after = decodeCursor(query.cursor, ['string', 'string'])
  return { companyId: query.companyId, agreementId: query.agreementId, limit: query.limit, after }
}
