import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { Badge } from '../../components/ui/Badge'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { meetingTime } from './format'
import { assemblyStatusBadge, assemblyStatusLabels } from './labels'
import { useAssemblies, type AssemblyView } from './use-assemblies'

/**
 * The general assemblies (docs/PRODUCT.md "General assembly"): upcoming ones first (soonest first),
 * then past and cancelled ones. Staff see their associations' from the start; members once the
 * notice went out. Read from the local copy, so it works offline.
 */
export function AssembliesPage() {
  const { t } = useLingui()
  usePageTitle(t`General assemblies`)
  const user = useSession().user
  const rows = useAssemblies(useSync())
  const [now] = useState(() => new Date().toISOString())
  const manager = !!user?.currentCompany && isCompanyAdminStaff(roleOf(user))
  const upcoming = (rows ?? []).filter((a) => a.status === 'PLANNED' && (a.heldAt ?? '') >= now).reverse()
  const past = (rows ?? []).filter((a) => !upcoming.includes(a))
  const companies = new Set((rows ?? []).map((a) => a.companyId))

  return (
    <div className="page assemblies-page">
      <div className="page-header">
        <h1>
          <Trans>General assemblies</Trans>
        </h1>
        {manager && (
          <Link to={'/assemblies/new' as never} className={buttonClass('primary')}>
            <span aria-hidden="true">+ </span>
            <Trans>New general assembly</Trans>
          </Link>
        )}
      </div>
      {!rows ?
        <Spinner label={t`Loading general assemblies`} />
      : <>
          <section aria-labelledby="assemblies-upcoming">
            <h2 id="assemblies-upcoming">
              <Trans>Upcoming</Trans>
            </h2>
            {upcoming.length ?
              <AssemblyList rows={upcoming} withCompany={companies.size > 1} />
            : <p className="empty">
                <Trans>No general assembly has been called.</Trans>
              </p>
            }
          </section>
          <section aria-labelledby="assemblies-past">
            <h2 id="assemblies-past">
              <Trans>Past and cancelled</Trans>
            </h2>
            {past.length ?
              <AssemblyList rows={past} withCompany={companies.size > 1} />
            : <p className="empty">
                <Trans>None yet.</Trans>
              </p>
            }
          </section>
        </>
      }
    </div>
  )
}

function AssemblyList({ rows, withCompany }: { rows: AssemblyView[]; withCompany: boolean }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  return (
    <ul className="assembly-list">
      {rows.map((a) => {
        const status = a.status ?? 'PLANNED'
        return (
          <li key={a.id} className="card assembly-list-item">
            <div className="assembly-list-head">
              <Link to={`/assemblies/${a.id}` as never} className="assembly-list-title cell-wrap">
                {a.title}
              </Link>
              <Badge variant={assemblyStatusBadge[status]}>{i18n._(assemblyStatusLabels[status])}</Badge>
              {a._pending && (
                <span className="pending-marker">
                  <Trans>Not yet synced</Trans>
                </span>
              )}
            </div>
            <p className="muted cell-wrap">
              {a.heldAt ? meetingTime(a.heldAt, locale) : ''} · {a.place}
              {withCompany && <> · {a.companyName}</>}
            </p>
            {a._rejected && (
              <p className="field-error" role="status">
                {a._rejected}
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
