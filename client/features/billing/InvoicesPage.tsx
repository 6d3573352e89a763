import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { invoiceStatuses, type InvoiceStatus } from '../../../shared/domain/invoice'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { Badge } from '../../components/ui/Badge'
import { FilterBar } from '../../components/ui/FilterBar'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { chargeStatusBadge, invoiceStatusLabels, settlementLabels } from './labels'
import { useInvoices } from './use-invoices'

type Filter = 'ALL' | InvoiceStatus

/**
 * The invoice list (docs/PRODUCT.md §2 "Invoice list"): staff see the current company's invoices and credit
 * notes, with status filters for company admin staff; a resident sees their own. From the local
 * copy, so it shows offline.
 */
export function InvoicesPage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  usePageTitle(t`Invoices`)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const companyId = role === 'USER' ? null : (user?.currentCompany?.id ?? null)
  const rows = useInvoices(useSync(), companyId)
  const [filter, setFilter] = useState<Filter>('ALL')
  const filters: Filter[] = isCompanyAdminStaff(role) ? ['ALL', ...invoiceStatuses] : ['ALL']
  const shown = rows?.filter((i) => filter === 'ALL' || i.status === filter) ?? []
  const count = shown.length

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Invoices</Trans>
        </h1>
      </div>
      <FilterBar
        label={t`Filter by status`}
        options={filters.map((f) => ({ key: f, label: f === 'ALL' ? t`All` : i18n._(invoiceStatusLabels[f]) }))}
        selected={filter}
        onSelect={setFilter}
      />
      {!rows ?
        <Spinner label={t`Loading invoices`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No invoices found</Trans>
        </p>
      : <Table caption={t`Invoices`} captionHidden className="table-invoices">
          <thead>
            <tr>
              <th scope="col">
                {/* The invoice's number, not a house number (a separate catalog entry). */}
                <Trans context="invoice">Number</Trans>
              </th>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Total Amount (DKK)</Trans>
              </th>
              <th scope="col">
                <Trans>Due Date</Trans>
              </th>
              <th scope="col">
                <Trans>Status</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((i) => (
              <tr key={i.id} className="row-link" onClick={() => void navigate({ to: '/invoices/$id', params: { id: i.id } })}>
                <th scope="row">
                  <Link to="/invoices/$id" params={{ id: i.id }} onClick={(e) => e.stopPropagation()}>
                    {i.invoiceNumber}
                  </Link>
                </th>
                <td className="cell-wrap" data-label={t`Name`}>
                  <span>
                    {i.kind === 'CREDIT_NOTE' && (
                      <Badge variant="warning">
                        <Trans>Credit note</Trans>
                      </Badge>
                    )}{' '}
                    {i.name}
                    <span className="muted cell-sub">{i.consumerName}</span>
                  </span>
                </td>
                <td className="cell-number cell-nowrap" data-label={t`Total Amount (DKK)`}>
                  {formatMoney(i.kind === 'CREDIT_NOTE' ? -(i.totalAmount ?? 0) : (i.totalAmount ?? 0), locale)}
                </td>
                <td className="cell-nowrap" data-label={t`Due Date`}>
                  {i.dueDate ? formatDate(i.dueDate, locale) : '-'}
                </td>
                <td data-label={t`Status`}>
                  {i.settlement ?
                    <Badge variant={i.settlement.kind === 'PAID_OUTSIDE' ? 'success' : 'neutral'}>{i18n._(settlementLabels[i.settlement.kind])}</Badge>
                  : i.status && <Badge variant={chargeStatusBadge(i.status)}>{i18n._(invoiceStatusLabels[i.status])}</Badge>}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      }
      {rows && (
        <p className="table-footer">
          <Trans>There are {count} invoices.</Trans>
        </p>
      )}
    </div>
  )
}
