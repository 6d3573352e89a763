import { useEffect } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Link, useNavigate } from '@tanstack/react-router'
import type { PaymentProvider } from '../../../shared/contract/payment-providers'
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
import { useCompanyRows } from '../companies/use-company-rows'
import { roleOf } from '../shell/navigation'
import { slashDate, statusBadge } from './agreement-format'
import { collectionProblemOf, collectionProblemShort, nextPaymentOf } from './agreement-state'
import { useAddressLine } from './use-address-line'
import { agreementStatusLabels } from './labels'
import { useAgreements, type AgreementView } from './use-agreements'
import { BreakableEmail } from '../../components/ui/BreakableEmail'
import { personName, personEmail } from '../../../shared/erased-person'

type Filter = 'ALL' | AgreementStatus

/**
 * The agreement list (docs/PRODUCT.md §2): staff see the current company's agreements, a resident their own.
 * Read from the local copy, so it works offline; agreements made or changed here but not yet sent
 * are marked. The status filter is the address (`/agreements/status/{status}`), for company admin
 * staff; everyone else sees "All" only (decision 0024). An accepted agreement that is not collected
 * says so in its row.
 */
export function AgreementsPage({ status }: { status?: AgreementStatus } = {}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Agreements`)
  const navigate = useNavigate()
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const admin = role === 'SUPERADMIN' || isAgreementAdmin(role)
  const companyId = role === 'USER' ? null : (user?.currentCompany?.id ?? null)
  const sync = useSync()
  const rows = useAgreements(sync, companyId)
  const providerRows = useCompanyRows(sync, 'paymentProvider', companyId ?? '') as (Partial<PaymentProvider> & { id: string })[] | undefined
  const providers = new Map((providerRows ?? []).map((p) => [p.id, p]))
  const filter: Filter = admin && status ? status : 'ALL'
  // Filtering by status is for company admin staff; anyone else is shown the whole list.
  useEffect(() => {
    if (status && user && !admin) void navigate({ to: '/agreements', replace: true })
  }, [status, user, admin, navigate])
  const select = (f: Filter) => void navigate(f === 'ALL' ? { to: '/agreements' } : { to: '/agreements/status/$status', params: { status: f } })

  const shown = rows?.filter((a) => filter === 'ALL' || a.status === filter) ?? []
  const filters: Filter[] = admin ? ['ALL', ...agreementStatuses] : ['ALL']
  const total = shown.reduce((sum, a) => sum + (a.price ?? 0), 0)
  const currency = shown[0]?.currency ?? 'DKK'
  const count = shown.length
  const notCollected = shown.filter((a) => collectionProblemOf(a, providers) !== null).length
  // The sentence names the currency itself, so the amount is a plain number (docs/PRODUCT.md §2).
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
        onSelect={select}
      />
      {notCollected > 0 && (
        <p className="collection-summary" role="status">
          <span aria-hidden="true">⚠ </span>
          <Plural
            value={notCollected}
            one="# accepted agreement is not collected. Open it to see why."
            other="# accepted agreements are not collected. Open them to see why."
          />
        </p>
      )}
      {!rows ?
        <Spinner label={t`Loading agreements`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No agreements found</Trans>
        </p>
      : <AgreementTable rows={shown} providers={providers} />}
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

function AgreementTable({ rows, providers }: { rows: AgreementView[]; providers: ReadonlyMap<string, { isActive?: boolean }> }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const addressLine = useAddressLine()
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
          const problem = collectionProblemOf(a, providers)
          const next = nextPaymentOf(a)
          return (
            <tr key={a.id}>
              <th scope="row" className="cell-wrap">
                <div className="member-cell">
                  <span className="avatar" aria-hidden="true">
                    {a.member?.title}
                  </span>
                  <span>
                    <Link to="/agreements/$id" params={{ id: a.id }} search={{}}>
                      {personName(a.member?.fullName, i18n)}
                    </Link>
                    {a.member?.isVerified && (
                      <span className="verified" title={t`Verified`}>
                        {' '}
                        ✓<span className="sr-only">{t`Verified`}</span>
                      </span>
                    )}
                    <br />
                    <a href={`mailto:${personEmail(a.member?.emailAddress)}`} className="muted">
                      <BreakableEmail email={personEmail(a.member?.emailAddress)} />
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
                  {problem && (
                    <span className="collection-warning">
                      <span aria-hidden="true">⚠ </span>
                      {i18n._(collectionProblemShort[problem])}
                    </span>
                  )}
                  {a._rejected && (
                    <p className="field-error" role="status">
                      {a._rejected}
                    </p>
                  )}
                </span>
              </td>
              <td className="cell-nowrap" data-label={t`Next payment`}>
                {slashDate(next?.date)}
                {next?.kind === 'FINAL' && (
                  <span className="muted cell-sub">
                    <Trans>last payment</Trans>
                  </span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
