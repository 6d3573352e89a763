import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { ListingKind } from '../../../shared/contract/market'
import { StoredPhoto } from '../../components/photo/StoredPhoto'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { formatMoney } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { expiryOf, kindLabels, shownInList, statusLabels, statusVariant } from './labels'
import { useListings, useMemberCompany, type ListingView } from './use-listings'
import { personName } from '../../../shared/erased-person'

/**
 * The market of one kind (decision 0063): buy and sell, share, swap. Every listing of the user's
 * association that has not expired (and the user's own, expired ones to renew), newest first, read
 * from the local copy so the list shows offline.
 */
export function MarketPage({ kind }: { kind: ListingKind }) {
  const { t, i18n } = useLingui()
  usePageTitle(i18n._(kindLabels[kind]))
  const handle = useSync()
  const rows = useListings(handle)
  const user = useSession().user
  const userId = user?.id
  const memberOf = useMemberCompany(handle, user)
  const shown = rows ? shownInList(rows, kind, userId) : undefined
  return (
    <div className="page market-page">
      <div className="page-header">
        <h1>{i18n._(kindLabels[kind])}</h1>
        {memberOf !== null && (
          <Link to="/markets/new" search={{ kind }} className={buttonClass('primary')}>
            <span aria-hidden="true">+ </span>
            <Trans>New listing</Trans>
          </Link>
        )}
      </div>
      <p className="muted">
        {kind === 'BUY' ?
          <Trans>Things neighbours sell. Listings expire after 30 days unless renewed.</Trans>
        : kind === 'SHARE' ?
          <Trans>Things neighbours lend or give away. Listings expire after 30 days unless renewed.</Trans>
        : <Trans>Things neighbours want to swap. Listings expire after 30 days unless renewed.</Trans>}
      </p>
      {memberOf === null ?
        <Alert variant="info">
          <Trans>
            The market is for the members of an association: residents with an agreement and its staff. Once you are one, you can list things and answer
            listings here.
          </Trans>
        </Alert>
      : !shown ?
        <Spinner label={t`Loading listings`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No listings yet</Trans>
        </p>
      : <ul className="listing-grid" aria-label={i18n._(kindLabels[kind])}>
          {shown.map((l) => (
            <ListingCard key={l.id} listing={l} mine={l.seller?.id === userId} />
          ))}
        </ul>
      }
    </div>
  )
}

function ListingCard({ listing: l, mine }: { listing: ListingView; mine: boolean }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const expiry = expiryOf(l)
  return (
    <li className="listing-card card">
      <StoredPhoto path={`/market/${l.id}/photo`} photoId={l.photoId} alt="" className="listing-thumb" />
      <div className="listing-card-body">
        <h2 className="listing-title">
          <Link to="/markets/listing/$id" params={{ id: l.id }}>
            {l.title}
          </Link>
        </h2>
        {l.kind === 'BUY' && typeof l.priceOre === 'number' && <p className="listing-price">{formatMoney(l.priceOre, locale)}</p>}
        <p className="listing-meta muted">
          {mine ?
            <Trans>Your listing</Trans>
          : personName(l.seller?.fullName, i18n)}
        </p>
        <p className="listing-badges">
          {l.status && <Badge variant={statusVariant[l.status]}>{i18n._(statusLabels[l.status])}</Badge>}{' '}
          {expiry?.expired ?
            <Badge variant="error">
              {mine ?
                <Trans>Expired — renew</Trans>
              : <Trans>Expired</Trans>}
            </Badge>
          : expiry && (
              <span className="muted">
                <Plural value={expiry.days} one="Expires in # day" other="Expires in # days" />
              </span>
            )
          }
          {l._pending && <PendingMarker />}
        </p>
      </div>
    </li>
  )
}
