import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Link } from '@tanstack/react-router'
import { agreementStatuses, type AgreementStatus } from '../../../shared/domain/agreement-status'
import { isAgreementAdmin } from '../../../shared/domain/roles'
import { Badge } from '../../components/ui/Badge'
import { FilterBar } from '../../components/ui/FilterBar'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatMoney, formatNumber } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { slashDate, statusBadge } from './agreement-format'
import { addressLine, agreementStatusLabels } from './labels'
import { useAgreements, type AgreementView } from './use-agreements'

type Filter = 'ALL' | AgreementStatus

/**
 * The agreement list (spec §2): staff see the current company's agreements, a resident their own.
 * Read from the local copy, so it works offline; agreements made or changed here but not yet sent
 * are marked.
 */
export function AgreementsPage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Agreements`)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const admin = isAgreementAdmin(role)
  const companyId = role === 'USER' ? null : (user?.currentCompany?.id ?? null)
  const sync = useSync()
  const rows = useAgreements(sync, companyId)
  const [filter, setFilter] = useState<Filter>('ALL')

  const shown = rows?.filter((a) => filter === 'ALL' || a.status === filter) ?? []
  const filters: Filter[] = admin ? ['ALL', ...agreementStatuses] : ['ALL']
  const total = shown.reduce((sum, a) => sum + (a.price ?? 0), 0)
  const currency = shown[0]?.currency ?? 'DKK'
  const count = shown.length
  // The sentence names the currency itself, so the amount is a plain number (spec §2).
  const amount = formatNumber(total / 100, locale, 2)

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Agreements</Trans>
        </h1>
        {admin && companyId && (
          <Link to="/agreements/create" className={buttonClass('primary')}>
            <Trans>Add agreement</Trans>
          </Link>
        )}
      </div>
      <FilterBar
        label={t`Filter by status`}
        options={filters.map((f) => ({ key: f, label: f === 'ALL' ? t`All` : i18n._(agreementStatusLabels[f]) }))}
        selected={filter}
        onSelect={setFilter}
      />
      {!rows ?
        <Spinner label={t`Loading agreements`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No agreements found</Trans>
        </p>
      : <AgreementTable rows={shown} />}
      {rows && (
        <p className="table-footer">
          <Trans>
            There are {count} agreements with a total amount of {amount} {currency}.
          </Trans>
        </p>
      )}
    </div>
  )
}

function AgreementTable({ rows }: { rows: AgreementView[] }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  return (
    <Table caption={t`Agreements`} captionHidden className="table-agreements">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Member</Trans>
          </th>
          <th scope="col">
            <Trans>Addresses</Trans>
          </th>
          <th scope="col" className="cell-number">
            <Trans>Amount</Trans>
          </th>
          <th scope="col">
            <Trans>Status</Trans>
          </th>
          <th scope="col">
            <Trans>Next payment</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => {
          const more = (a.addresses?.length ?? 0) - 1
          return (
            <tr key={a.id}>
              <th scope="row" className="cell-wrap">
                <div className="member-cell">
                  <span className="avatar" aria-hidden="true">
                    {a.member?.title}
                  </span>
                  <span>
                    <Link to="/agreements/$id" params={{ id: a.id }} search={{}}>
                      {a.member?.fullName}
                    </Link>
                    {a.member?.isVerified && (
                      <span className="verified" title={t`Verified`}>
                        {' '}
                        ✓<span className="sr-only">{t`Verified`}</span>
                      </span>
                    )}
                    <br />
                    <a href={`mailto:${a.member?.emailAddress ?? ''}`} className="muted">
                      {a.member?.emailAddress}
                    </a>
                    {a.externalId ?
                      <span className="muted"> · #{a.externalId}</span>
                    : null}
                  </span>
                </div>
              </th>
              <td className="cell-wrap" data-label={t`Addresses`}>
                {a.addresses?.length ?
                  <span>
                    {addressLine(a.addresses[0]!)}
                    {more > 0 && (
                      <span className="muted">
                        {' '}
                        <Trans>+ {more} more</Trans>
                      </span>
                    )}
                  </span>
                : <span className="muted">
                    <Trans>No addresses</Trans>
                  </span>
                }
              </td>
              <td className="cell-number cell-nowrap" data-label={t`Amount`}>
                {formatMoney(a.price ?? 0, locale)}
              </td>
              <td data-label={t`Status`}>
                <span>
                  {a.status && (
                    <Badge variant={statusBadge(a.status, a.overdue === true)}>
                      <span className="status-dot" aria-hidden="true" />
                      {a.overdue ? t`Overdue` : i18n._(agreementStatusLabels[a.status])}
                    </Badge>
                  )}
                  {a._pending && <PendingMarker />}
                  {a._rejected && (
                    <p className="field-error" role="status">
                      {a._rejected}
                    </p>
                  )}
                </span>
              </td>
              <td className="cell-nowrap" data-label={t`Next payment`}>
                {slashDate(a.nextRegularPaymentDate)}
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
