import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { specialistKinds, telHref, type SpecialistKind } from '../../../shared/contract/specialists'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { buttonClass } from '../../components/ui/Button'
import { FilterBar } from '../../components/ui/FilterBar'
import { Spinner } from '../../components/ui/Spinner'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useMemberCompany } from '../market/use-listings'
import { isWebLink, kindLabels, shownWebsite } from './labels'
import { useSpecialists, type SpecialistView } from './use-specialists'

/**
 * The association's specialists (decision 0065): the plumber, electrician, administrator, lawyer and
 * others it uses, with contact details and notes, from the device's copy (so they show offline).
 * Its staff add and edit them.
 */
export function SpecialistsPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Specialists`)
  const handle = useSync()
  const rows = useSpecialists(handle)
  const user = useSession().user
  const staffOf = new Set(user?.companies.map((c) => c.id) ?? [])
  const [kind, setKind] = useState<SpecialistKind | 'ALL'>('ALL')
  const shown = rows?.filter((s) => kind === 'ALL' || s.kind === kind)
  // Someone who is no association's member (yet) is told so, not shown an empty directory.
  const outsider = useMemberCompany(handle, user) === null && rows?.length === 0
  return (
    <div className="page specialists-page">
      <div className="page-header">
        <h1>
          <Trans>Specialists</Trans>
        </h1>
        {user?.currentCompany && (
          <Link to="/specialists/new" className={buttonClass('primary')}>
            <span aria-hidden="true">+ </span>
            <Trans>Add specialist</Trans>
          </Link>
        )}
      </div>
      <p className="muted">
        <Trans>The craftsmen and advisers the association uses. Call them for the association’s matters as the notes say.</Trans>
      </p>
      <FilterBar
        label={t`Filter by kind`}
        options={[{ key: 'ALL' as const, label: t`All` }, ...specialistKinds.map((k) => ({ key: k, label: i18n._(kindLabels[k]) }))]}
        selected={kind}
        onSelect={setKind}
      />
      {outsider ?
        <Alert variant="info">
          <Trans>
            Specialists are for the members of an association: residents with an agreement and its staff. Once you are one, the craftsmen and advisers it uses
            show here.
          </Trans>
        </Alert>
      : !shown ?
        <Spinner label={t`Loading specialists`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No specialists yet</Trans>
        </p>
      : <ul className="plain-list specialist-list" aria-label={t`Specialists`}>
          {shown.map((s) => (
            <SpecialistCard key={s.id} specialist={s} editable={!!s.companyId && staffOf.has(s.companyId)} />
          ))}
        </ul>
      }
    </div>
  )
}

function SpecialistCard({ specialist: s, editable }: { specialist: SpecialistView; editable: boolean }) {
  const { t, i18n } = useLingui()
  return (
    <li className="card specialist-card">
      <div className="specialist-head">
        <h2 className="specialist-name">{s.name}</h2>
        {s.kind && <Badge variant="info">{i18n._(kindLabels[s.kind])}</Badge>}
        {s._pending && <PendingMarker />}
      </div>
      {s.companyName && <p className="specialist-company">{s.companyName}</p>}
      <dl className="detail-list specialist-contact">
        {s.phone && (
          <>
            <dt>
              <Trans>Phone</Trans>
            </dt>
            <dd>
              <a href={telHref(s.phone)}>{s.phone}</a>
            </dd>
          </>
        )}
        {s.email && (
          <>
            <dt>
              <Trans>E-mail</Trans>
            </dt>
            <dd>
              <a href={`mailto:${s.email}`} className="breakable">
                {s.email}
              </a>
            </dd>
          </>
        )}
        {s.website && (
          <>
            <dt>
              <Trans>Website</Trans>
            </dt>
            <dd>
              {isWebLink(s.website) ?
                <a href={s.website} target="_blank" rel="noopener noreferrer" className="breakable">
                  {shownWebsite(s.website)}
                </a>
              : <span className="breakable">{s.website}</span>}
            </dd>
          </>
        )}
        {s.address && (
          <>
            <dt>
              <Trans>Address</Trans>
            </dt>
            <dd>{s.address}</dd>
          </>
        )}
      </dl>
      {s.notes && <p className="specialist-notes">{s.notes}</p>}
      {editable && (
        <Link to="/specialists/$id" params={{ id: s.id }} className={`${buttonClass('secondary', 'sm')} specialist-edit`} aria-label={t`Edit ${s.name ?? ''}`}>
          <Trans>Edit</Trans>
        </Link>
      )}
    </li>
  )
}
