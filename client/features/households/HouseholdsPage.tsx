import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { livesThereOn } from '../../../shared/domain/household'
import { effectiveRole, isCompanyAdminStaff } from '../../../shared/domain/roles'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TextField } from '../../components/ui/TextField'
import { todayIso } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import './households.css'
import { householdTypeLabels } from './labels'
import { addressLine, searchHouseholds, useHouseholds } from './use-households'

const PAGE = 50

/**
 * The association's households (docs/PRODUCT.md "Households", decision 0090): its addresses with
 * their type, figures and current residents, from the device's copy (so they show offline),
 * searchable by address, number and resident, 50 at a time.
 */
export function HouseholdsPage() {
  const { t } = useLingui()
  usePageTitle(t`Households`)
  const user = useSession().user
  const companyId = user?.currentCompany?.id ?? null
  return (
    <div className="page households-page">
      <div className="page-header">
        <h1>
          <Trans>Households</Trans>
        </h1>
        {companyId && user && (user.userRole === 'SUPERADMIN' || isCompanyAdminStaff(effectiveRole(user.userRole, user.companies, companyId))) && (
          <Link to="/households/import" className={buttonClass('secondary')}>
            <Trans>Import from a spreadsheet</Trans>
          </Link>
        )}
      </div>
      <p className="muted">
        <Trans>The association’s dwellings and who lives in them. Open one to change its figures, its residents or to register a move.</Trans>
      </p>
      {companyId ?
        <HouseholdList companyId={companyId} />
      : <Alert variant="info">
          <Trans>Choose a company in your profile to see its households.</Trans>
        </Alert>
      }
    </div>
  )
}

function HouseholdList({ companyId }: { companyId: string }) {
  const { t, i18n } = useLingui()
  const handle = useSync()
  const rows = useHouseholds(handle, companyId)
  const [search, setSearch] = useState('')
  const [shown, setShown] = useState(PAGE)
  if (!rows) return <Spinner label={t`Loading households`} />
  const found = searchHouseholds(rows, search)
  const today = todayIso()
  return (
    <>
      <form role="search" className="form households-search" onSubmit={(e) => e.preventDefault()}>
        <TextField
          label={t`Search households`}
          hint={t`Address, number or resident`}
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value)
            setShown(PAGE)
          }}
        />
      </form>
      <p className="muted" aria-live="polite">
        {found.length === 1 ?
          <Trans>1 household</Trans>
        : <Trans>{found.length} households</Trans>}
      </p>
      {found.length === 0 ?
        <p className="empty">
          <Trans>No households found</Trans>
        </p>
      : <ul className="plain-list household-list" aria-label={t`Households`}>
          {found.slice(0, shown).map((h) => {
            const living = (h.residents ?? []).filter((r) => livesThereOn(r, today))
            return (
              <li key={h.id} className="card household-card">
                <div className="household-head">
                  <h2 className="household-address">
                    <Link to="/households/$id" params={{ id: h.id }}>
                      {addressLine(h)}
                    </Link>
                  </h2>
                  {h.type && <Badge variant="info">{i18n._(householdTypeLabels[h.type])}</Badge>}
                  {h._pending && <PendingMarker />}
                </div>
                <p className="household-residents">
                  {living.length ?
                    living.map((r) => r.fullName).join(', ')
                  : <span className="muted">
                      <Trans>No residents registered</Trans>
                    </span>
                  }
                </p>
                {h.externalId && (
                  <p className="muted">
                    <Trans>No. {h.externalId}</Trans>
                  </p>
                )}
              </li>
            )
          })}
        </ul>
      }
      {found.length > shown && (
        <Button variant="secondary" onClick={() => setShown((n) => n + PAGE)}>
          <Trans>Show more</Trans>
        </Button>
      )}
    </>
  )
}
