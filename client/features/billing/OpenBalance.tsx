import { Plural, Trans } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { Invoice } from '../../../shared/contract/invoices'
import { isUnpaid, openBalance } from '../../../shared/domain/invoice'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { useLocale } from '../../i18n/use-locale'
import { formatMoney, todayIso } from '../../lib/format'
import type { LocalDb } from '../../sync/local-db'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'

type Document = Pick<Invoice, 'id' | 'kind' | 'status' | 'dueDate' | 'totalAmount' | 'settlement' | 'agreementId' | 'creditedInvoice'>

function agreementDocuments(companyId: string, agreementId: string): SharedQuery<Document[]> {
  return sharedQuery(`invoices-of:${agreementId}`, ['invoices'], async (db: LocalDb) =>
    ((await db.invoices.where('companyId').equals(companyId).toArray()) as unknown as Document[]).filter((d) => d.agreementId === agreementId && d.kind),
  )
}

/**
 * The open balance of an agreement (decision 0042): what its unpaid invoices still owe — a failed
 * charge, or one past its due date and not collected, not settled by staff — also when a later
 * month was paid. The same rule as the debtor overview (shared/domain/invoice.ts), from the local
 * copy, so it shows offline. A `<dt>`/`<dd>` pair for the agreement's detail list.
 */
export function OpenBalance({ companyId, agreementId }: { companyId: string; agreementId: string }) {
  const locale = useLocale()
  const user = useSession().user
  const documents = useSharedQuery(useSync()?.db, agreementDocuments(companyId, agreementId))
  if (!documents) return null
  const today = todayIso()
  const rows = documents.map((d) => ({ ...d, creditedInvoiceId: d.creditedInvoice?.id ?? null }))
  const owed = openBalance(rows, today)
  const count = rows.filter((d) => isUnpaid(d, today)).length
  const staff = user ? isCompanyAdminStaff(roleOf(user)) : false
  return (
    <>
      <dt>
        <Trans>Open balance</Trans>
      </dt>
      <dd className="open-balance">
        {owed > 0 ?
          <strong className="open-balance-owed">{formatMoney(owed, locale)}</strong>
        : formatMoney(owed, locale)}
        {count > 0 && (
          <span className="muted">
            {' '}
            (<Plural value={count} one="# unpaid invoice" other="# unpaid invoices" />)
          </span>
        )}
        {count > 0 && staff && (
          <>
            {' '}
            <Link to="/debtors">
              <Trans>See debtors</Trans>
            </Link>
          </>
        )}
      </dd>
    </>
  )
}
