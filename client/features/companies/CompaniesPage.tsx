import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { Company } from '../../../shared/contract/companies'
import { Alert } from '../../components/ui/Alert'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { usePageTitle } from '../../lib/use-page-title'
import { useSession } from '../auth/session'
import { CompanyStatusBadge } from './CompanyLifecycle'
import { loadCompanies } from './load-companies'

type LoadState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; companies: Company[] }

/** The companies the caller runs (docs/PRODUCT.md §2 "Companies"); the super admin sees all and may create one. */
export function CompaniesPage() {
  const { t } = useLingui()
  usePageTitle(t`Companies`)
  const superAdmin = useSession().user?.userRole === 'SUPERADMIN'
  const [state, setState] = useState<LoadState>({ status: 'loading' })

  useEffect(() => {
    const controller = new AbortController()
    loadCompanies(controller.signal).then(
      (companies) => setState({ status: 'ready', companies }),
      () => {
        if (!controller.signal.aborted) setState({ status: 'error' })
      },
    )
    return () => controller.abort()
  }, [])

  const unionTypeLabel = (type: Company['unionType']) => (type === 'COOP' ? t`Cooperative (COOP)` : t`Condominium (CONDO)`)

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Companies</Trans>
        </h1>
        {superAdmin && (
          <Link to="/companies/create" className={buttonClass('primary')}>
            <Trans>Create company</Trans>
          </Link>
        )}
      </div>
      {state.status === 'loading' ?
        <Spinner label={t`Loading companies`} />
      : state.status === 'error' ?
        <Alert variant="error">
          <Trans>Failed to load companies</Trans>
        </Alert>
      : state.companies.length === 0 ?
        <p className="empty">
          <Trans>No companies found</Trans>
        </p>
      : <Table caption={t`Companies`} captionHidden className="table-companies">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>CVR</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Type</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Status</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Members</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Agreements</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Invoices</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.companies.map((company) => (
              <tr key={company.id}>
                <th scope="row" className="cell-wrap">
                  <Link to="/company/$id" params={{ id: company.id }}>
                    {company.name}
                  </Link>{' '}
                  {company.acronym && <span className="muted">({company.acronym})</span>}
                  {/* On a phone the other columns are read under the name, not scrolled to. */}
                  <PhoneSummary company={company} type={unionTypeLabel(company.unionType)} />
                </th>
                <td className="cell-nowrap hide-phone">{company.cvr}</td>
                <td className="hide-phone">{unionTypeLabel(company.unionType)}</td>
                <td className="hide-phone">
                  <CompanyStatusBadge status={company.status} />
                </td>
                <td className="hide-phone">{company.membersCount}</td>
                <td className="hide-phone">{company.agreementsCount}</td>
                <td className="hide-phone">{company.invoicesCount}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      }
    </div>
  )
}

/** What the other columns say, under the name on a phone (hidden elsewhere). */
function PhoneSummary({ company, type }: { company: Company; type: string }) {
  const { cvr, membersCount: members, agreementsCount: agreements, invoicesCount: invoices } = company
  return (
    <span className="show-phone">
      <span className="cell-sub">
        <CompanyStatusBadge status={company.status} />
      </span>
      <span className="cell-sub muted">
        <Trans>
          CVR {cvr} · {type}
        </Trans>
      </span>
      <span className="cell-sub muted">
        <Trans>
          Members: {members} · Agreements: {agreements} · Invoices: {invoices}
        </Trans>
      </span>
    </span>
  )
}
