import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { UpdateLendingItemRequest } from '../../../shared/contract/lending'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TextAreaField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { issuesByField } from '../../lib/form-issues'
import { parseKroner } from '../../lib/kroner-input'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { kronerInput } from './labels'
import { lendsForAssociation } from './lending-access'
import { updateItem } from './lending-mutations'
import { useItem, type ItemView } from './use-lending'
import './lending.css'

type Field = 'title' | 'description' | 'rules' | 'location' | 'depositOre'

/**
 * The lender edits an item's texts and deposit (decision 0064): the lender, or for the association's
 * item its company admin staff (the server's rule). Saved through the outbox against the version the
 * form opened on (If-Match), so it works offline; a conflict shows on the item's page and here.
 */
export function ItemEditPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Edit item`)
  const handle = useSync()
  const user = useSession().user
  const record = useItem(handle, id)
  const row = record?.row as ItemView | null | undefined
  const lender = !!row && (row.lender?.kind === 'ASSOCIATION' ? lendsForAssociation(user, row.companyId) : !!user && row.lender?.id === user.id)
  return (
    <div className="page lending-form-page">
      <div className="page-header">
        <Link to="/lending/item/$id" params={{ id }} className={buttonClass('link')}>
          <Trans>← Back to the item</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Edit item</Trans>
      </h1>
      {!handle || record === undefined || (!row && record.absent === 'loading') ?
        <Spinner label={t`Loading item`} />
      : !row ?
        <RecordMissing absent={record.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Item not found.</Trans>} />
      : !lender ?
        <Alert variant="info">
          <Trans>Only the lender can edit this item.</Trans>
        </Alert>
      : <>
          {record.problems.map((m) => (
            <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />
          ))}
          <EditForm handle={handle} row={row as ItemView & { _version: number }} />
        </>
      }
    </div>
  )
}

function EditForm({ handle, row }: { handle: SyncHandle; row: ItemView & { _version: number } }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const queuedText = useQueuedText()
  const [title, setTitle] = useState(row.title ?? '')
  const [description, setDescription] = useState(row.description ?? '')
  const [rules, setRules] = useState(row.rules ?? '')
  const [location, setLocation] = useState(row.location ?? '')
  const [deposit, setDeposit] = useState(kronerInput(row.depositOre, locale))
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const depositOre = deposit.trim() ? (parseKroner(deposit) ?? Number.NaN) : null
    const parsed = UpdateLendingItemRequest.safeParse({ title, description, rules, location, depositOre })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    setErrors({})
    const queued = updateItem(handle, row, parsed.data)
    if (!queued) return showToast('info', t`Nothing was changed.`)
    setBusy(true)
    try {
      const result = await awaitServer(handle, [await queued])
      if (result.outcome === 'accepted') showToast('success', t`The item was saved.`)
      else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else return
      void navigate({ to: '/lending/item/$id', params: { id: row.id } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
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
        hint={t`A changed deposit applies to loans requested after it; a loan already requested keeps its own.`}
        inputMode="decimal"
        value={deposit}
        onChange={(e) => setDeposit(e.target.value)}
        error={errors.depositOre}
      />
      <div className="form-actions">
        <Button type="submit" busy={busy} disabled={busy}>
          <Trans>Save item</Trans>
        </Button>
        <Link to="/lending/item/$id" params={{ id: row.id }} className={buttonClass('secondary')}>
          <Trans>Cancel</Trans>
        </Link>
      </div>
    </form>
  )
}
