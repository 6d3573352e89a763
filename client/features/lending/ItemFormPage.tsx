import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateLendingItemRequest, type LenderKind } from '../../../shared/contract/lending'
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
import { useMemberCompany } from '../market/use-listings'
import { lendsForAssociation } from './lending-access'
import { uploadItemPhoto } from './lending-api'
import { createItem } from './lending-mutations'
import './lending.css'

type Field = 'title' | 'description' | 'rules' | 'location' | 'depositOre' | 'photo'

/**
 * Lend something (decision 0064): through the outbox, so it works offline. The administration may lend
 * on behalf of the association. A photo goes up with it when online; offline it can be added from
 * the item's page later.
 */
export function ItemFormPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Lend something`)
  const navigate = useNavigate()
  const handle = useSync()
  const { online } = useSyncStatus(handle)
  const queuedText = useQueuedText()
  const user = useSession().user
  const memberOf = useMemberCompany(handle, user)
  const companyId = memberOf ?? undefined
  const staff = lendsForAssociation(user, companyId)
  const [lender, setLender] = useState<LenderKind>('MEMBER')
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [rules, setRules] = useState('')
  const [location, setLocation] = useState('')
  const [deposit, setDeposit] = useState('')
  const [photo, setPhoto] = useState<File | null>(null)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)
  const [action] = useState(() => createActionKey())

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!handle || !user || !companyId) return
    const depositOre = deposit.trim() ? (parseKroner(deposit) ?? Number.NaN) : null
    const parsed = CreateLendingItemRequest.safeParse({ id: crypto.randomUUID(), companyId, lender, title, description, rules, location, depositOre })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    if (photo && !photo.type.startsWith('image/')) return setErrors({ photo: t`The photo must be a PNG, JPEG, GIF or WebP image.` })
    setErrors({})
    setBusy(true)
    try {
      const id = parsed.data.id!
      const association = lender === 'ASSOCIATION'
      const queued = await createItem(
        handle,
        { ...parsed.data, id },
        { kind: lender, id: association ? null : user.id, fullName: association ? (user.currentCompany?.name ?? '') : user.fullName },
      )
      const result = await awaitServer(handle, [queued])
      if (result.outcome === 'accepted') {
        if (photo) await sendFirstPhoto(handle, () => uploadItemPhoto(id, photo, 1, action), t`The photo could not be added. You can add it from the item.`)
        showToast('success', t`Your item can now be borrowed.`)
      } else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else return
      void navigate({ to: '/lending/item/$id', params: { id } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="page lending-form-page">
      <div className="page-header">
        <Link to="/lending" className={buttonClass('link')}>
          <Trans>← Back to lending</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Lend something</Trans>
      </h1>
      {memberOf === null ?
        <Alert variant="info">
          <Trans>Only members of an association can lend and borrow there.</Trans>
        </Alert>
      : <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
          {staff && (
            <SelectField
              label={t`Who lends it`}
              value={lender}
              onChange={(e) => setLender(e.target.value as LenderKind)}
              options={[
                { value: 'MEMBER', label: t`I do` },
                { value: 'ASSOCIATION', label: t`The association` },
              ]}
            />
          )}
          <TextField label={t`What do you lend?`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={120} required />
          <TextAreaField label={t`Description`} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} rows={3} />
          <TextAreaField
            label={t`Rules`}
            hint={t`Shown in the contract, e.g. “Clean it after use”.`}
            value={rules}
            onChange={(e) => setRules(e.target.value)}
            error={errors.rules}
            rows={3}
          />
          <TextField label={t`Where to pick it up`} value={location} onChange={(e) => setLocation(e.target.value)} error={errors.location} maxLength={200} />
          <TextField
            label={t`Deposit (DKK, optional)`}
            hint={t`Collected through the borrower's agreement in Vipps MobilePay when both have confirmed, and refunded when it is back.`}
            inputMode="decimal"
            value={deposit}
            onChange={(e) => setDeposit(e.target.value)}
            error={errors.depositOre}
          />
          <NewPhotoField id="item-photo" online={online} error={errors.photo} onChange={setPhoto} />
          <div className="form-actions">
            <Button type="submit" busy={busy} disabled={busy || !companyId}>
              <Trans>Publish item</Trans>
            </Button>
          </div>
        </form>
      }
    </div>
  )
}
