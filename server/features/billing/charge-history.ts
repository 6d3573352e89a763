import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import type { PartType, VatRate } from '../../../shared/domain/agreement-parts'
import { articleNumberOf, creditShares, invoiceTotals, lineAmounts } from '../../../shared/domain/invoice'
import { writeChange } from '../sync'
import { billingRepository as st, type CompanySnapshot, type MemberSnapshot } from './billing.repository'
import { newBulkId } from '../../lib/ids'

/**
 * Collected charges and refunds written the way billing writes them (charge, invoice with its
 * lines and a gap-free number from the company's counter, change-log rows, then the invoice moved
 * to its final status with its payment date, as `followCharge` does), without going through
 * Vipps. For the statistics tests, the browser journey (a history before the session starts) and
 * the benchmark (200,000 charges). Runs in the caller's transaction (`transaction(db, …)`), on
 * either engine.
 */
export interface HistoryWriter {
  charge(c: {
    agreementId: string
    paymentDate: string
    lines: { type: PartType; amount: number; vatRate?: VatRate }[]
    status?: string
    description?: string
    kind?: 'REGULAR' | 'ONE_TIME'
  }): Promise<{ chargeId: string; invoiceId: string }>
  refund(r: { chargeId: string; amount: number; paymentDate: string; status?: string }): Promise<string>
  /** Moves a document to another status (and payment date), as billing does later. */
  setStatus(invoiceId: string, status: string, paymentDate: string | null): Promise<void>
}

const agreementOf = statement<[string], { company_id: string; member_user_id: string; external_seq: number }>(
  'SELECT company_id, member_user_id, external_seq FROM agreements WHERE id = ?',
)
const insertCharge = statement<unknown[], never>(
  `INSERT INTO charges (id, agreement_id, company_id, kind, type, amount_ore, currency, description, due, status, vipps_status, captured_ore, refunded_ore, invoice_id, version, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, 'DKK', ?, ?, ?, ?, ?, 0, ?, 1, ?, ?)`,
)
const finish = statement<[string, string, string | null, string], never>(
  'UPDATE invoices SET status = ?, payment_status = ?, payment_date = ?, version = version + 1 WHERE id = ?',
)
const chargeOf = statement<[string], { invoice_id: string; agreement_id: string }>('SELECT invoice_id, agreement_id FROM charges WHERE id = ?')
const linesOf = statement<[string], { type: PartType; total_incl_vat_ore: number; vat_rate: number }>(
  'SELECT type, total_incl_vat_ore, vat_rate FROM invoice_lines WHERE invoice_id = ? ORDER BY position',
)
const refunded = statement<[number, string], never>('UPDATE charges SET refunded_ore = refunded_ore + ? WHERE id = ?')

type AgreementSnapshot = { companyId: string; memberUserId: string; company: CompanySnapshot; member: MemberSnapshot; externalSeq: number }

/** The HistoryWriter of one transaction: agreement snapshots are read once. */
class ChargeHistoryWriter implements HistoryWriter {
  private readonly snapshots = new Map<string, AgreementSnapshot>()

  constructor(
    private readonly db: Db,
    private readonly now: string,
  ) {}

  private async snapshot(agreementId: string): Promise<AgreementSnapshot> {
    const { db } = this
    let s = this.snapshots.get(agreementId)
    if (!s) {
      const a = await agreementOf.get(db, [agreementId])
      if (!a) throw new Error(`history: no agreement ${agreementId}`)
      s = {
        companyId: a.company_id,
        memberUserId: a.member_user_id,
        company: (await st.company(db, a.company_id))!,
        member: (await st.member(db, a.member_user_id, agreementId))!,
        externalSeq: a.external_seq,
      }
      this.snapshots.set(agreementId, s)
    }
    return s
  }

  private async issue(
    kind: 'INVOICE' | 'CREDIT_NOTE',
    agreementId: string,
    chargeId: string,
    description: string,
    lines: { type: PartType; grossOre: number; vatRate: VatRate }[],
    issueDate: string,
    extra: { creditedInvoiceId?: string; refundId?: string },
  ) {
    const { db, now } = this
    const s = await this.snapshot(agreementId)
    const id = newBulkId()
    await st.insertInvoice(db, {
      id,
      companyId: s.companyId,
      kind,
      number: await st.nextInvoiceNumber(db, s.companyId),
      agreementId,
      chargeId,
      memberUserId: s.memberUserId,
      creditedInvoiceId: extra.creditedInvoiceId ?? null,
      refundId: extra.refundId ?? null,
      issueDate,
      dueDate: issueDate,
      status: 'CREATED',
      description,
      company: s.company,
      member: s.member,
      ...invoiceTotals(lines),
      paymentType: kind === 'INVOICE' ? 'REGULAR' : 'REFUND',
      now,
    })
    for (const [position, l] of lines.entries())
      await st.insertLine(db, {
        invoiceId: id,
        position,
        id: `${id}:${position}`,
        articleNumber: articleNumberOf(position),
        type: l.type,
        description,
        unit: kind === 'INVOICE' ? 'MONTH' : 'PIECE',
        vatRate: l.vatRate,
        ...lineAmounts(l),
        creditedPosition: null,
      })
    await writeChange(db, 'invoice', id, 'upsert', { companyId: s.companyId, userId: s.memberUserId }, now)
    return id
  }

  async charge({ agreementId, paymentDate, lines, status = 'EXECUTED', description, kind = 'REGULAR' }: Parameters<HistoryWriter['charge']>[0]) {
    const { db, now } = this
    const s = await this.snapshot(agreementId)
    const chargeId = newBulkId()
    const amount = lines.reduce((sum, l) => sum + l.amount, 0)
    const text = description ?? `${s.company.acronym} ${s.externalSeq} ${paymentDate}`.slice(0, 45)
    const invoiceId = await this.issue(
      'INVOICE',
      agreementId,
      chargeId,
      text,
      lines.map((l) => ({ type: l.type, grossOre: l.amount, vatRate: l.vatRate ?? 0 })),
      paymentDate,
      {},
    )
    await insertCharge.run(db, [
      chargeId,
      agreementId,
      s.companyId,
      kind,
      kind === 'REGULAR' ? 'RECURRING' : 'UNSCHEDULED',
      amount,
      text,
      paymentDate,
      status,
      status === 'EXECUTED' ? 'CHARGED' : null,
      status === 'EXECUTED' ? amount : 0,
      invoiceId,
      now,
      now,
    ])
    await writeChange(db, 'charge', chargeId, 'upsert', { companyId: s.companyId, userId: s.memberUserId }, now)
    await this.setStatus(invoiceId, status, status === 'EXECUTED' ? paymentDate : null)
    return { chargeId, invoiceId }
  }

  async refund({ chargeId, amount, paymentDate, status = 'EXECUTED' }: Parameters<HistoryWriter['refund']>[0]) {
    const { db } = this
    const c = (await chargeOf.get(db, [chargeId]))!
    const original = await linesOf.all(db, [c.invoice_id])
    const shares = creditShares(
      original.map((l) => l.total_incl_vat_ore),
      amount,
    )
    const lines = original.map((l, i) => ({ type: l.type, grossOre: shares[i]!, vatRate: l.vat_rate as VatRate })).filter((l) => l.grossOre > 0)
    const noteId = await this.issue('CREDIT_NOTE', c.agreement_id, chargeId, 'Refusion', lines, paymentDate, {
      creditedInvoiceId: c.invoice_id,
      refundId: newBulkId(),
    })
    await refunded.run(db, [amount, chargeId])
    await this.setStatus(noteId, status, status === 'EXECUTED' ? paymentDate : null)
    return noteId
  }

  async setStatus(invoiceId: string, status: string, paymentDate: string | null) {
    if (status !== 'CREATED') await finish.run(this.db, [status, status, paymentDate, invoiceId])
  }
}

export const historyWriter = (db: Db, now: string): HistoryWriter => new ChargeHistoryWriter(db, now)
