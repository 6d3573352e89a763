import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { StoredPhoto } from '../../components/photo/StoredPhoto'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { availability, bookingsOf, todayInCopenhagen } from './labels'
import { useMemberCompany } from '../market/use-listings'
import { useItems, useLoans, type ItemView, type LoanView } from './use-lending'
import { personName } from '../../../shared/erased-person'

/** Items shown at first and added per "Show more" (the list reads the local copy, so a page costs no request). */
const PAGE = 24

/**
 * Lending (decision 0064): what members of the user's association lend, newest first, each with whether
 * it is free today or lent out (and until when), read from the local copy so it shows offline.
 */
export function LendingPage() {
  const { t } = useLingui()
  usePageTitle(t`Lending`)
  const handle = useSync()
  // Archived items (withdrawn while they had loans) stay for those loans but are not listed.
  const items = useItems(handle)?.filter((i) => !i.archivedAt)
  const loans = useLoans(handle)
  const user = useSession().user
  const userId = user?.id
  const memberOf = useMemberCompany(handle, user)
  const [shown, setShown] = useState(PAGE)
  const byItem = new Map<string, LoanView[]>()
  for (const l of bookingsOf(loans ?? [])) byItem.set(l.itemId!, [...(byItem.get(l.itemId!) ?? []), l])
  return (
    <div className="page lending-page">
      <div className="page-header">
        <h1>
          <Trans>Lending</Trans>
        </h1>
        <div className="form-actions">
          <Link to="/lending/loans" className={buttonClass('secondary')}>
            <Trans>My loans</Trans>
          </Link>
          {memberOf !== null && (
            <Link to="/lending/new" className={buttonClass('primary')}>
              <span aria-hidden="true">+ </span>
              <Trans>Lend something</Trans>
            </Link>
          )}
        </div>
      </div>
      <p className="muted">
        <Trans>Borrow what neighbours and the association lend: ask for the days you need, agree on the contract in the app, and bring it back on time.</Trans>
      </p>
      {memberOf === null ?
        <Alert variant="info">
          <Trans>
            Lending is for the members of an association: residents with an agreement and its staff. Once you are one, you can borrow and lend here.
          </Trans>
        </Alert>
      : !items ?
        <Spinner label={t`Loading items`} />
      : items.length === 0 ?
        <p className="empty">
          <Trans>Nothing to borrow yet</Trans>
        </p>
      : <>
          <ul className="listing-grid" aria-label={t`Items to borrow`}>
            {items.slice(0, shown).map((item) => (
              <ItemCard key={item.id} item={item} bookings={byItem.get(item.id) ?? []} mine={item.lender?.id === userId} />
            ))}
          </ul>
          {items.length > shown && (
            <div className="form-actions">
              <Button variant="secondary" onClick={() => setShown(shown + PAGE)}>
                <Trans>Show more</Trans>
              </Button>
            </div>
          )}
        </>
      }
    </div>
  )
}

function ItemCard({ item, bookings, mine }: { item: ItemView; bookings: LoanView[]; mine: boolean }) {
  const locale = useLocale()
  const { i18n } = useLingui()
  const { now, next } = availability(bookings, todayInCopenhagen())
  return (
    <li className="listing-card card">
      <StoredPhoto path={`/lending/${item.id}/photo`} photoId={item.photoId} alt="" className="listing-thumb" />
      <div className="listing-card-body">
        <h2 className="listing-title">
          <Link to="/lending/item/$id" params={{ id: item.id }}>
            {item.title}
          </Link>
        </h2>
        <p className="listing-meta muted">
          {mine ?
            <Trans>Your item</Trans>
          : item.lender?.kind === 'ASSOCIATION' ?
            <Trans>Lent by the association</Trans>
          : personName(item.lender?.fullName, i18n)}
        </p>
        {typeof item.depositOre === 'number' && (
          <p className="muted">
            <Trans>Deposit {formatMoney(item.depositOre, locale)}</Trans>
          </p>
        )}
        <p className="listing-badges">
          {now ?
            <Badge variant="warning">
              <Trans>Lent out until {formatDate(now.toDate!, locale)}</Trans>
            </Badge>
          : <Badge variant="success">
              <Trans>Available today</Trans>
            </Badge>
          }{' '}
          {!now && next && (
            <span className="muted">
              <Trans>Booked from {formatDate(next.fromDate!, locale)}</Trans>
            </span>
          )}
          {item._pending && <PendingMarker />}
        </p>
      </div>
    </li>
  )
}
