/**
 * The account statement from the device's copy (decision 0068): the synced invoices,
 * credit notes and charges of the member's agreements in the association, through the same pure
 * function as the server (shared/domain/account-statement.ts). A charge's failure day is the
 * Vipps history's FAIL event (the server has the day it saw it); the reason is not synced.
 */
import type { AccountStatementResponse } from '../../../shared/contract/account-statement'
import { accountStatement, statementPeriod, type StatementCharge, type StatementDocument } from '../../../shared/domain/account-statement'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import type { LocalDb, Row } from '../../sync/local-db'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** A synced charge as the statement reads it; one that collected (or is still collecting) is left out. */
export function statementChargeOf(row: Row): StatementCharge | null {
  const status = str(row.status)
  if (status !== 'FAILED' && status !== 'DECLINED' && status !== 'EXPIRED') return null
  const history = Array.isArray(row.history) ? (row.history as { event?: string; occurredAt?: string }[]) : []
  const failed = history.find((h) => h.event === 'FAIL' && typeof h.occurredAt === 'string')
  return {
    id: str(row.id),
    invoiceId: typeof row.invoiceId === 'string' ? row.invoiceId : null,
    status,
    failedOn: failed ? copenhagenDateOf(new Date(failed.occurredAt!)) : null,
    failureReason: null,
    updatedAt: str(row.updatedAt),
  }
}

/** A synced invoice or credit note, if the row is complete enough to count. */
export function statementDocumentOf(row: Row): StatementDocument | null {
  if ((row.kind !== 'INVOICE' && row.kind !== 'CREDIT_NOTE') || typeof row.totalAmount !== 'number' || !row.issueDate) return null
  const payment = row.payment as { paymentDate?: string | null } | null | undefined
  const settlement = row.settlement as StatementDocument['settlement']
  return {
    id: str(row.id),
    kind: row.kind,
    invoiceNumber: str(row.invoiceNumber),
    name: str(row.name),
    chargeId: str(row.chargeId),
    creditedInvoice: (row.creditedInvoice as StatementDocument['creditedInvoice']) ?? null,
    issueDate: str(row.issueDate),
    status: row.status as StatementDocument['status'],
    totalAmount: row.totalAmount,
    payment: payment ? { paymentDate: payment.paymentDate ?? null } : null,
    settlement: settlement ?? null,
  }
}

/**
 * The statement of `userId` (the signed-in resident: null) in the company for the year, or null
 * when the device holds nothing of theirs there.
 */
export async function localStatement(
  db: LocalDb,
  r: { companyId: string; userId: string | null; year: number; through?: string; ownUserId: string; ownName: string },
  today: string = copenhagenDateOf(new Date()),
): Promise<AccountStatementResponse | null> {
  const userId = r.userId ?? r.ownUserId
  const agreements = (await db.agreements.where('companyId').equals(r.companyId).toArray()).filter(
    (a) => (a.member as { userId?: string } | undefined)?.userId === userId,
  )
  if (agreements.length === 0) return null
  const ids = new Set(agreements.map((a) => a.id))
  const [invoices, charges, company] = await Promise.all([
    db.invoices.where('companyId').equals(r.companyId).toArray(),
    db.charges
      .where('agreementId')
      .anyOf([...ids])
      .toArray(),
    db.companies.get(r.companyId),
  ])
  // The same period as the server's (decision 0081): an interim statement to `through`, or to today while the year runs.
  const period = statementPeriod(r.year, today, r.through)
  const documents = invoices.filter((i) => ids.has(str(i.agreementId))).flatMap((i) => statementDocumentOf(i) ?? [])
  const failed = charges.flatMap((c) => statementChargeOf(c) ?? [])
  const member = agreements[0]!.member as { fullName?: string } | undefined
  const companyName = str(company?.name) || str((invoices[0]?.company as { name?: string } | undefined)?.name)
  return {
    companyId: r.companyId,
    companyName,
    member: { userId, name: r.userId ? str(member?.fullName) : r.ownName },
    year: r.year,
    interim: period.interim,
    ...accountStatement(documents, failed, period),
  }
}
