import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateListingRequest, listingKinds, type ListingKind } from '../../../shared/contract/market'
import { NewPhotoField } from '../../components/photo/PhotoFields'
import { sendFirstPhoto } from '../../components/photo/use-photo-upload'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { SelectField, TextAreaField, TextField } from '../../components/ui/TextField'
import { createActionKey } from '../../lib/api'
import { issuesByField } from '../../lib/form-issues'
import { parseKroner } from '../../lib/kroner-input'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { kindLabels, kindPath } from './labels'
import { uploadListingPhoto } from './market-api'
import { createListing } from './market-mutations'
import { useMemberCompany } from './use-listings'

type Field = 'title' | 'description' | 'priceOre' | 'kind' | 'photo'

/**
 * A new listing (decision 0063): through the outbox, so it works offline. A photo goes up with it when
 * online (the server needs the listing first); offline the listing is saved and the photo can be
 * added from its page later.
 */
export function ListingFormPage({ kind: initialKind }: { kind: ListingKind }) {
  const { t, i18n } = useLingui()
  usePageTitle(t`New listing`)
  const navigate = useNavigate()
  const handle = useSync()
  const { online } = useSyncStatus(handle)
  const queuedText = useQueuedText()
  const user = useSession().user
  const memberOf = useMemberCompany(handle, user)
  const companyId = memberOf ?? undefined
  const [kind, setKind] = useState<ListingKind>(initialKind)
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [price, setPrice] = useState('')
  const [photo, setPhoto] = useState<File | null>(null)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)
  const [action] = useState(() => createActionKey())

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!handle || !user || !companyId) return
    const priceOre = kind === 'BUY' ? (parseKroner(price) ?? (price.trim() ? Number.NaN : undefined)) : undefined
    const parsed = CreateListingRequest.safeParse({ id: crypto.randomUUID(), companyId, kind, title, description, priceOre })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    if (photo && !photo.type.startsWith('image/')) return setErrors({ photo: t`The photo must be a PNG, JPEG, GIF or WebP image.` })
    setErrors({})
    setBusy(true)
    try {
      const id = parsed.data.id!
      const queued = await createListing(handle, { ...parsed.data, id }, { id: user.id, fullName: user.fullName })
      const result = await awaitServer(handle, [queued])
      if (result.outcome === 'accepted') {
        if (photo)
          await sendFirstPhoto(handle, () => uploadListingPhoto(id, photo, 1, action), t`The photo could not be added. You can add it from the listing.`)
        showToast('success', t`Your listing is in the market.`)
      } else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else return
      void navigate({ to: '/markets/listing/$id', params: { id } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="page listing-form-page">
      <div className="page-header">
        <Link to={kindPath[initialKind]} className={buttonClass('link')}>
          <Trans>← Back to the market</Trans>
        </Link>
      </div>
      <h1>
        <Trans>New listing</Trans>
      </h1>
      {memberOf === null ?
        <Alert variant="info">
          <Trans>Only members of an association can list things in its market.</Trans>
        </Alert>
      : <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
          <SelectField
            label={t`Kind`}
            value={kind}
            onChange={(e) => setKind(e.target.value as ListingKind)}
            options={listingKinds.map((k) => ({ value: k, label: i18n._(kindLabels[k]) }))}
            error={errors.kind}
          />
          <TextField label={t`Title`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={120} required />
          <TextAreaField label={t`Description`} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} rows={4} />
          {kind === 'BUY' && (
            <TextField label={t`Price (DKK)`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} error={errors.priceOre} required />
          )}
          <NewPhotoField id="listing-photo" online={online} error={errors.photo} onChange={setPhoto} />
          <div className="form-actions">
            <Button type="submit" busy={busy} disabled={busy || !companyId}>
              <Trans>Publish listing</Trans>
            </Button>
          </div>
        </form>
      }
    </div>
  )
}
