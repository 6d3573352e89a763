/** Invoices and credit notes from the local copy, live (readable offline). */
import type { Invoice } from '../../../shared/contract/invoices'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'

export type InvoiceView = Partial<Invoice> & ViewRow

/** Staff: the company's invoices; a resident: their own (the sync holds only those). Newest number first. */
function listQuery(companyId: string | null): SharedQuery<InvoiceView[]> {
  const key = `invoices:${companyId ?? 'own'}`
  return sharedQuery(key, ['invoices'], async (db: LocalDb) => {
    const rows: Row[] = companyId ? await db.invoices.where('companyId').equals(companyId).toArray() : await db.invoices.toArray()
    return (rows as InvoiceView[]).sort(
      (a, b) => Number(b.invoiceNumber ?? 0) - Number(a.invoiceNumber ?? 0) || (b.issueDate ?? '').localeCompare(a.issueDate ?? ''),
    )
  })
}

/** undefined while IndexedDB opens. */
export const useInvoices = (handle: SyncHandle | null, companyId: string | null): InvoiceView[] | undefined => useSharedQuery(handle?.db, listQuery(companyId))

export const useInvoice = (handle: SyncHandle | null, id: string) => useRecord<Invoice>(handle, 'invoice', id)
