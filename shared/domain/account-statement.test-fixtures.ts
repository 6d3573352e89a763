/** Documents for the account statement's tests (account-statement.test.ts and .scenarios.test.ts). */
import { yearPeriod, type StatementDocument } from './account-statement'

let n = 0

/** An invoice of 1,000 kr. issued on 1 March 2026, unpaid, each with its own number and charge. */
export const invoice = (over: Partial<StatementDocument> = {}): StatementDocument => {
  n += 1
  return {
    id: `inv-${n}`,
    kind: 'INVOICE',
    invoiceNumber: String(n),
    name: `Charge ${n}`,
    chargeId: `ch-${n}`,
    creditedInvoice: null,
    issueDate: '2026-03-01',
    status: 'CREATED',
    totalAmount: 100_000,
    payment: null,
    settlement: null,
    ...over,
  }
}

/** A credit note of `of`. */
export const creditNote = (of: StatementDocument, over: Partial<StatementDocument> = {}): StatementDocument =>
  invoice({ kind: 'CREDIT_NOTE', creditedInvoice: { id: of.id, invoiceNumber: of.invoiceNumber }, ...over })

export const year = yearPeriod(2026)
