import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateSpecialistRequest, UpdateSpecialistRequest, specialistKinds, type SpecialistKind } from '../../../shared/contract/specialists'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { SelectField, TextAreaField, TextField } from '../../components/ui/TextField'
import { issuesByField } from '../../lib/form-issues'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer, type ServerOutcome } from '../../sync/await-server'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { kindLabels } from './labels'
import { createSpecialist, deleteSpecialist, updateSpecialist } from './specialist-mutations'
import { useSpecialist, type SpecialistView } from './use-specialists'

type Field = 'kind' | 'name' | 'companyName' | 'phone' | 'email' | 'website' | 'address' | 'notes'

/** Add (no `id`) or edit a specialist (decision 0065): the association's staff, through the outbox (works offline). */
export function SpecialistFormPage({ id }: { id?: string }) {
  const { t } = useLingui()
  usePageTitle(id ? t`Edit specialist` : t`Add specialist`)
  const handle = useSync()
  const record = useSpecialist(handle, id ?? '')
  const row = id ? (record?.row as SpecialistView | null | undefined) : undefined
  const user = useSession().user
  const companyId = id ? row?.companyId : user?.currentCompany?.id
  const staff = !!companyId && !!user?.companies.some((c) => c.id === companyId)
  return (
    <div className="page specialist-form-page">
      <div className="page-header">
        <Link to="/specialists" className={buttonClass('link')}>
          <Trans>← Back to the specialists</Trans>
        </Link>
      </div>
      <h1>
        {id ?
          <Trans>Edit specialist</Trans>
        : <Trans>Add specialist</Trans>}
      </h1>
      {id && (!handle || record === undefined || (!row && record.absent === 'loading')) ?
        <Spinner label={t`Loading specialist`} />
      : id && !row ?
        <RecordMissing absent={record?.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Specialist not found.</Trans>} />
      : !staff || !companyId ?
        <Alert variant="info">
          <Trans>Only the association’s staff can change its specialists.</Trans>
        </Alert>
      : <>
          {handle && record?.problems.map((m) => <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />)}
          <SpecialistForm companyId={companyId} existing={row ?? undefined} />
        </>
      }
    </div>
  )
}

function SpecialistForm({ companyId, existing }: { companyId: string; existing?: SpecialistView }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const handle = useSync()
  const queuedText = useQueuedText()
  const [v, setV] = useState({
    kind: (existing?.kind ?? 'PLUMBER') as SpecialistKind,
    name: existing?.name ?? '',
    companyName: existing?.companyName ?? '',
    phone: existing?.phone ?? '',
    email: existing?.email ?? '',
    website: existing?.website ?? '',
    address: existing?.address ?? '',
    notes: existing?.notes ?? '',
  })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)
  const set = (field: Field) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [field]: e.target.value }))

  const done = (result: ServerOutcome, text: string) => {
    if (result.outcome === 'accepted') showToast('success', text)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
    else return false
    void navigate({ to: '/specialists' })
    return true
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!handle) return
    setBusy(true)
    try {
      if (!existing) {
        const parsed = CreateSpecialistRequest.safeParse({ id: crypto.randomUUID(), companyId, ...v })
        if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
        setErrors({})
        done(await awaitServer(handle, [await createSpecialist(handle, { ...parsed.data, id: parsed.data.id! })]), t`The specialist was saved.`)
        return
      }
      const parsed = UpdateSpecialistRequest.safeParse(v)
      if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
      setErrors({})
      const queued = updateSpecialist(handle, existing as SpecialistView & { _version: number }, parsed.data)
      if (!queued) return showToast('info', t`Nothing was changed.`)
      done(await awaitServer(handle, [await queued]), t`The specialist was saved.`)
    } finally {
      setBusy(false)
    }
  }

  const remove = async () => {
    if (!handle || !existing || !window.confirm(t`Remove this specialist?`)) return
    done(await awaitServer(handle, [await deleteSpecialist(handle, existing as SpecialistView & { _version: number })]), t`The specialist was removed.`)
  }

  return (
    <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
      <SelectField
        label={t`Kind`}
        value={v.kind}
        onChange={set('kind')}
        options={specialistKinds.map((k) => ({ value: k, label: i18n._(kindLabels[k]) }))}
        error={errors.kind}
      />
      <TextField label={t`Name`} value={v.name} onChange={set('name')} error={errors.name} maxLength={120} required autoComplete="off" />
      <TextField label={t`Company (optional)`} value={v.companyName} onChange={set('companyName')} error={errors.companyName} maxLength={160} />
      <TextField label={t`Phone (optional)`} type="tel" value={v.phone} onChange={set('phone')} error={errors.phone} maxLength={24} />
      <TextField label={t`E-mail (optional)`} type="email" value={v.email} onChange={set('email')} error={errors.email} maxLength={254} />
      <TextField
        label={t`Website (optional)`}
        value={v.website}
        onChange={set('website')}
        error={errors.website}
        maxLength={300}
        hint={t`For example www.example.dk`}
        inputMode="url"
      />
      <TextField label={t`Address (optional)`} value={v.address} onChange={set('address')} error={errors.address} maxLength={200} />
      <TextAreaField
        label={t`Notes (optional)`}
        rows={4}
        value={v.notes}
        onChange={set('notes')}
        error={errors.notes}
        hint={t`E.g. when to call them, agreed prices, the association’s customer number.`}
      />
      <div className="form-actions">
        <Button type="submit" busy={busy} disabled={busy}>
          <Trans>Save specialist</Trans>
        </Button>
        {existing && (
          <Button variant="danger" onClick={() => void remove()}>
            <Trans>Remove specialist</Trans>
          </Button>
        )}
      </div>
    </form>
  )
}
