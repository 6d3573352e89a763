import { useState, type FormEvent } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { ContactSellerRequest, UpdateListingRequest, listingStatuses, type ListingStatus } from '../../../shared/contract/market'
import { ReplacePhotoField } from '../../components/photo/PhotoFields'
import { StoredPhoto } from '../../components/photo/StoredPhoto'
import { usePhotoUpload } from '../../components/photo/use-photo-upload'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { RecordBody } from '../../components/sync/RecordBody'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { TextAreaField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { formatDate, formatMoney } from '../../lib/format'
import { issuesByField } from '../../lib/form-issues'
import { parseKroner } from '../../lib/kroner-input'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer, type ServerOutcome } from '../../sync/await-server'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { expiryOf, kindLabels, kindPath, statusLabels, statusVariant } from './labels'
import { contactSeller, uploadListingPhoto } from './market-api'
import { deleteListing, renewListing, updateListing } from './market-mutations'
import { useListing, type ListingView } from './use-listings'
import { personName } from '../../../shared/erased-person'

/** One listing (decision 0063): its photo and details; the seller's actions; "Write to the seller" for the others. */
export function ListingPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Listing`)
  const handle = useSync()
  const record = useListing(handle, id)
  const row = record?.row as ListingView | null | undefined
  return (
    <div className="page listing-page">
      <div className="page-header">
        <Link to={row?.kind ? kindPath[row.kind] : '/markets/swap'} className={buttonClass('link')}>
          <Trans>← Back to the market</Trans>
        </Link>
      </div>
      <RecordBody<ListingView> handle={handle} record={record} loading={t`Loading listing`} notFound={<Trans>Listing not found.</Trans>}>
        {(row, handle) => <ListingDetails handle={handle} row={row} />}
      </RecordBody>
    </div>
  )
}

function ListingDetails({ handle, row }: { handle: SyncHandle; row: ListingView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const mine = !!user && row.seller?.id === user.id
  const expiry = expiryOf(row)
  const staff = !!user && (user.userRole === 'SUPERADMIN' || (user.currentCompany?.id === row.companyId && !!user.currentCompany))
  return (
    <>
      <div className="listing-head">
        <StoredPhoto path={`/market/${row.id}/photo`} photoId={row.photoId} alt={t`Photo of ${row.title ?? ''}`} className="listing-photo" />
        <div>
          <p className="muted">{row.kind && i18n._(kindLabels[row.kind])}</p>
          <h1>{row.title}</h1>
          {row.kind === 'BUY' && typeof row.priceOre === 'number' && <p className="listing-price">{formatMoney(row.priceOre, locale)}</p>}
          <p className="listing-badges">
            {row.status && <Badge variant={statusVariant[row.status]}>{i18n._(statusLabels[row.status])}</Badge>}{' '}
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
            {row._pending && <PendingMarker />}
          </p>
          <p className="muted">
            {mine ?
              <Trans>Your listing</Trans>
            : row.createdAt && (
                <Trans>
                  Listed {formatDate(row.createdAt, locale)} by {personName(row.seller?.fullName, i18n) ?? ''}
                </Trans>
              )
            }
          </p>
        </div>
      </div>
      {row.description && <p className="listing-description">{row.description}</p>}
      {mine ?
        <SellerActions handle={handle} row={row} expired={!!expiry?.expired} />
      : <>
          {row.status === 'GONE' || expiry?.expired ?
            <Alert variant="info">
              <Trans>This listing is no longer available.</Trans>
            </Alert>
          : <ContactSeller row={row} />}
          {staff && <Moderate handle={handle} row={row} />}
        </>
      }
    </>
  )
}

/** A toast for a change's outcome; a refusal or conflict shows on the page itself (ChangeProblem). */
function useOutcome() {
  const queuedText = useQueuedText()
  return (result: ServerOutcome, done: string) => {
    if (result.outcome === 'accepted') showToast('success', done)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
  }
}

type Field = 'title' | 'description' | 'priceOre'

/** The seller: status, renew, edit (queued, works offline), the photo (online) and delete. */
function SellerActions({ handle, row, expired }: { handle: SyncHandle; row: ListingView; expired: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const outcome = useOutcome()
  const { online } = useSyncStatus(handle)
  const [title, setTitle] = useState(row.title ?? '')
  const [description, setDescription] = useState(row.description ?? '')
  const [price, setPrice] = useState(typeof row.priceOre === 'number' ? formatMoney(row.priceOre, locale).replace(/\s*kr\.?/, '') : '')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const opened = row as ListingView & { _version: number }
  const { setPhoto, photoError, uploading, upload } = usePhotoUpload(handle, (photo, action) => uploadListingPhoto(row.id, photo, opened._version, action))

  const setStatus = async (status: ListingStatus) => {
    const queued = updateListing(handle, opened, { status })
    if (queued) outcome(await awaitServer(handle, [await queued]), t`The listing was saved.`)
  }
  const renew = async () => outcome(await awaitServer(handle, [await renewListing(handle, opened)]), t`The listing was renewed for 30 days.`)
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const priceOre = row.kind === 'BUY' ? (parseKroner(price) ?? Number.NaN) : undefined
    const parsed = UpdateListingRequest.safeParse({ title, description, ...(priceOre !== undefined ? { priceOre } : {}) })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    setErrors({})
    const queued = updateListing(handle, opened, parsed.data)
    if (!queued) return showToast('info', t`Nothing was changed.`)
    outcome(await awaitServer(handle, [await queued]), t`The listing was saved.`)
  }
  const remove = async () => {
    if (!window.confirm(t`Delete this listing?`)) return
    outcome(await awaitServer(handle, [await deleteListing(handle, opened)]), t`The listing was deleted.`)
    void navigate({ to: row.kind ? kindPath[row.kind] : '/markets/swap' })
  }

  return (
    <section className="listing-seller" aria-labelledby="listing-seller-title">
      <h2 id="listing-seller-title">
        <Trans>Your listing</Trans>
      </h2>
      {expired && (
        <Alert variant="warning">
          <Trans>This listing has expired: neighbours no longer see it. Renew it to list it for another 30 days.</Trans>
        </Alert>
      )}
      <div className="form-actions listing-status-actions">
        {/* A gone listing is not renewed (the server refuses it): mark it available first. */}
        {row.status !== 'GONE' && (
          <Button variant={expired ? 'primary' : 'secondary'} onClick={() => void renew()}>
            <Trans>Renew</Trans>
          </Button>
        )}
        {listingStatuses
          .filter((s) => s !== row.status)
          .map((s) => (
            <Button key={s} variant="secondary" onClick={() => void setStatus(s)}>
              {s === 'AVAILABLE' ?
                <Trans>Mark as available</Trans>
              : s === 'RESERVED' ?
                <Trans>Mark as reserved</Trans>
              : <Trans>Mark as gone</Trans>}
            </Button>
          ))}
      </div>
      <form className="form card" noValidate onSubmit={(e) => void save(e)}>
        <TextField label={t`Title`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={120} />
        <TextAreaField label={t`Description`} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} rows={4} />
        {row.kind === 'BUY' && (
          <TextField label={t`Price (DKK)`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} error={errors.priceOre} />
        )}
        <div className="form-actions">
          <Button type="submit">
            <Trans>Save</Trans>
          </Button>
        </div>
      </form>
      <div className="card">
        <ReplacePhotoField id="listing-photo-replace" hasPhoto={!!row.photoId} error={photoError} onChange={setPhoto} />
        <div className="form-actions">
          <Button variant="secondary" busy={uploading} disabled={uploading || !online || !!row._pending} onClick={() => void upload()}>
            <Trans>Save photo</Trans>
          </Button>
          <Button variant="danger" onClick={() => void remove()}>
            <Trans>Delete listing</Trans>
          </Button>
        </div>
      </div>
    </section>
  )
}

/** "Write to the seller" (online): the seller gets the text with the writer's name and e-mail, in-app and by e-mail. */
function ContactSeller({ row }: { row: ListingView }) {
  const { t, i18n } = useLingui()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [sending, setSending] = useState(false)
  const [sent, setSent] = useState(false)
  const [action] = useState(() => createActionKey())
  if (!row.seller?.id) return null
  const send = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = ContactSellerRequest.safeParse({ text })
    if (!parsed.success) return setError(issuesByField<'text'>(parsed.error.issues, i18n).text)
    setError(undefined)
    setSending(true)
    try {
      await contactSeller(row.id, parsed.data.text, action)
      setSent(true)
      setText('')
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 0 ?
          t`The message could not be sent: there is no connection. Try again when you are online.`
        : errorMessage(err, t`The message could not be sent.`),
      )
    } finally {
      setSending(false)
    }
  }
  return (
    <section className="listing-contact" aria-labelledby="listing-contact-title">
      <h2 id="listing-contact-title">
        <Trans>Write to the seller</Trans>
      </h2>
      {sent && (
        <Alert variant="success">
          <Trans>Your message was sent. {personName(row.seller.fullName, i18n)} will answer you by e-mail.</Trans>
        </Alert>
      )}
      <form className="form card" noValidate onSubmit={(e) => void send(e)}>
        <TextAreaField
          label={t`Message`}
          hint={t`The seller gets your name and e-mail address with it.`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={error}
          rows={4}
          maxLength={1000}
        />
        <div className="form-actions">
          <Button type="submit" busy={sending} disabled={sending}>
            <Trans>Send</Trans>
          </Button>
        </div>
      </form>
    </section>
  )
}

/** The association's staff may take down an offending listing (moderation). */
function Moderate({ handle, row }: { handle: SyncHandle; row: ListingView }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const outcome = useOutcome()
  const remove = async () => {
    if (!window.confirm(t`Delete this listing for everyone?`)) return
    outcome(await awaitServer(handle, [await deleteListing(handle, row as ListingView & { _version: number })]), t`The listing was deleted.`)
    void navigate({ to: row.kind ? kindPath[row.kind] : '/markets/swap' })
  }
  return (
    <section className="listing-moderate">
      <Button variant="danger" onClick={() => void remove()}>
        <Trans>Delete listing (moderation)</Trans>
      </Button>
    </section>
  )
}
