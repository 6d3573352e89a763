import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { LoanRequest } from '../../../shared/contract/lending'
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
import { formatDate, formatMoney } from '../../lib/format'
import { issuesByField } from '../../lib/form-issues'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useMyAgreements } from '../market/use-listings'
import { Calendar } from './Calendar'
import { bookingsOf, calendarLoans, isFree, loanStatusLabels, loanStatusVariant, todayInCopenhagen } from './labels'
import { canPayDeposit, lendsForAssociation } from './lending-access'
import { uploadItemPhoto } from './lending-api'
import { deleteItem, requestLoan } from './lending-mutations'
import { useItem, useLoans, type ItemView, type LoanView } from './use-lending'
import './lending.css'
import { personName } from '../../../shared/erased-person'

/** One item (decision 0064): its photo and details, the month calendar of its bookings, a request form, its history; the lender's photo and delete. */
export function ItemPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Item`)
  const handle = useSync()
  const record = useItem(handle, id)
  return (
    <div className="page lending-item-page">
      <div className="page-header">
        <Link to="/lending" className={buttonClass('link')}>
          <Trans>← Back to lending</Trans>
        </Link>
      </div>
      <RecordBody<ItemView> handle={handle} record={record} loading={t`Loading item`} notFound={<Trans>Item not found.</Trans>}>
        {(row, handle) => <ItemDetails handle={handle} row={row} />}
      </RecordBody>
    </div>
  )
}

function ItemDetails({ handle, row }: { handle: SyncHandle; row: ItemView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const loans = (useLoans(handle) ?? []).filter((l) => l.itemId === row.id)
  const lender = row.lender?.kind === 'ASSOCIATION' ? lendsForAssociation(user, row.companyId) : !!user && row.lender?.id === user.id
  const bookings = bookingsOf(loans)
  const today = todayInCopenhagen()
  return (
    <>
      <div className="listing-head">
        <StoredPhoto path={`/lending/${row.id}/photo`} photoId={row.photoId} alt={t`Photo of ${row.title ?? ''}`} className="listing-photo" />
        <div>
          <h1>{row.title}</h1>
          <p className="muted">
            {lender ?
              <Trans>You lend this</Trans>
            : row.lender?.kind === 'ASSOCIATION' ?
              <Trans>Lent by the association ({personName(row.lender.fullName, i18n)})</Trans>
            : <Trans>Lent by {personName(row.lender?.fullName, i18n) ?? ''}</Trans>}
            {row._pending && <PendingMarker />}
          </p>
          <dl className="lending-facts">
            {row.description && (
              <>
                <dt>
                  <Trans>Description</Trans>
                </dt>
                <dd>{row.description}</dd>
              </>
            )}
            {row.rules && (
              <>
                <dt>
                  <Trans>Rules</Trans>
                </dt>
                <dd>{row.rules}</dd>
              </>
            )}
            {row.location && (
              <>
                <dt>
                  <Trans>Pick up at</Trans>
                </dt>
                <dd>{row.location}</dd>
              </>
            )}
            <dt>
              <Trans>Deposit</Trans>
            </dt>
            <dd>{typeof row.depositOre === 'number' ? formatMoney(row.depositOre, locale) : t`None`}</dd>
          </dl>
        </div>
      </div>
      <section className="lending-section" aria-labelledby="item-calendar-title">
        <h2 id="item-calendar-title">
          <Trans>Calendar</Trans>
        </h2>
        {/* Who had it, has it and will have it: the bookings and the loans already returned. */}
        <Calendar bookings={calendarLoans(loans)} today={today} mineId={loans.find((l) => l.mine === 'borrower')?.id} />
      </section>
      {row.archivedAt ?
        <Alert variant="info">
          <Trans>This item is no longer lent out.</Trans>
        </Alert>
      : !lender && <RequestForm handle={handle} row={row} bookings={bookings} today={today} />}
      <section className="lending-section" aria-labelledby="item-history-title">
        <h2 id="item-history-title">
          <Trans>History</Trans>
        </h2>
        {loans.length === 0 ?
          <p className="empty">
            <Trans>Not borrowed yet</Trans>
          </p>
        : <ul className="lending-loans">
            {loans.map((l) => (
              <LoanLine key={l.id} loan={l} />
            ))}
          </ul>
        }
      </section>
      {lender && <LenderActions handle={handle} row={row} />}
    </>
  )
}

/** A loan in a list: dates, borrower, status; a link to it for its parties. */
export function LoanLine({ loan, title }: { loan: LoanView; title?: string }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const dates = `${formatDate(loan.fromDate ?? '', locale)} – ${formatDate(loan.toDate ?? '', locale)}`
  return (
    <li className="card">
      {title && <strong>{title}</strong>}
      {loan.mine ?
        <Link to="/lending/loans/$id" params={{ id: loan.id }}>
          {dates}
        </Link>
      : <span>{dates}</span>}
      <span>
        {loan.mine === 'borrower' ?
          <Trans>You</Trans>
        : personName(loan.borrower?.fullName, i18n)}
      </span>
      {loan.status && <Badge variant={loanStatusVariant[loan.status]}>{i18n._(loanStatusLabels[loan.status])}</Badge>}
      {loan._pending && <PendingMarker />}
    </li>
  )
}

type Field = 'fromDate' | 'toDate' | 'message'

/** Ask to borrow it (through the outbox): the days must be free in the calendar; a deposit needs an active agreement (said beforehand). */
function RequestForm({ handle, row, bookings, today }: { handle: SyncHandle; row: ItemView; bookings: LoanView[]; today: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const queuedText = useQueuedText()
  const user = useSession().user
  const agreements = useMyAgreements(handle)
  const [fromDate, setFrom] = useState('')
  const [toDate, setTo] = useState('')
  const [message, setMessage] = useState('')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)
  const needsAgreement = typeof row.depositOre === 'number' && agreements !== undefined && !canPayDeposit(user, agreements, row.companyId)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!user) return
    const parsed = LoanRequest.safeParse({ id: crypto.randomUUID(), fromDate, toDate, message })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    if (parsed.data.fromDate < today) return setErrors({ fromDate: t`The first day cannot be in the past.` })
    if (!isFree({ fromDate: parsed.data.fromDate, toDate: parsed.data.toDate }, bookings))
      return setErrors({ fromDate: t`The item is already lent out on some of these days. Please choose other dates.` })
    setErrors({})
    setBusy(true)
    try {
      const id = parsed.data.id!
      const queued = await requestLoan(
        handle,
        row.id,
        { ...parsed.data, id },
        {
          itemId: row.id,
          companyId: row.companyId!,
          borrower: { id: user.id, fullName: user.fullName },
          lenderUserId: row.lender?.id ?? null,
          depositOre: row.depositOre ?? null,
        },
      )
      const result = await awaitServer(handle, [queued])
      if (result.outcome === 'accepted') showToast('success', t`Your request was sent to the lender.`)
      else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else return
      void navigate({ to: '/lending/loans/$id', params: { id } })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="lending-section" aria-labelledby="item-request-title">
      <h2 id="item-request-title">
        <Trans>Ask to borrow it</Trans>
      </h2>
      {needsAgreement && (
        <Alert variant="info">
          <Trans>
            This item has a deposit of {formatMoney(row.depositOre!, locale)}, collected through your agreement with the association in Vipps MobilePay. You
            need an active agreement to confirm the contract.
          </Trans>
        </Alert>
      )}
      <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
        <TextField label={t`From`} type="date" min={today} value={fromDate} onChange={(e) => setFrom(e.target.value)} error={errors.fromDate} required />
        <TextField
          label={t`To (return date)`}
          type="date"
          min={fromDate || today}
          value={toDate}
          onChange={(e) => setTo(e.target.value)}
          error={errors.toDate}
          required
        />
        <TextAreaField
          label={t`Message to the lender (optional)`}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          error={errors.message}
          rows={2}
        />
        <div className="form-actions">
          <Button type="submit" busy={busy} disabled={busy}>
            <Trans>Send request</Trans>
          </Button>
        </div>
      </form>
    </section>
  )
}

/** The lender: edit (its own screen, through the outbox), the photo (online) and delete. */
function LenderActions({ handle, row }: { handle: SyncHandle; row: ItemView }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const queuedText = useQueuedText()
  const { online } = useSyncStatus(handle)
  const opened = row as ItemView & { _version: number }
  const { setPhoto, photoError, uploading, upload } = usePhotoUpload(handle, (photo, action) => uploadItemPhoto(row.id, photo, opened._version, action))
  const remove = async () => {
    if (!window.confirm(t`Delete this item?`)) return
    const result = await awaitServer(handle, [await deleteItem(handle, opened)])
    if (result.outcome === 'accepted') showToast('success', t`The item was removed from the list.`)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
    else return
    void navigate({ to: '/lending' })
  }
  return (
    <section className="lending-section card" aria-labelledby="item-lender-title">
      <h2 id="item-lender-title">
        <Trans>Your item</Trans>
      </h2>
      <div className="form-actions">
        <Link to="/lending/item/$id/edit" params={{ id: row.id }} className={buttonClass('secondary')}>
          <Trans>Edit item</Trans>
        </Link>
      </div>
      <ReplacePhotoField id="item-photo-replace" hasPhoto={!!row.photoId} error={photoError} onChange={setPhoto} />
      <div className="form-actions">
        <Button variant="secondary" busy={uploading} disabled={uploading || !online || !!row._pending} onClick={() => void upload()}>
          <Trans>Save photo</Trans>
        </Button>
        <Button variant="danger" onClick={() => void remove()}>
          <Trans>Delete item</Trans>
        </Button>
      </div>
    </section>
  )
}
