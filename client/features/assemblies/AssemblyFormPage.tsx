import { useRef, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateAssemblyRequest } from '../../../shared/contract/assemblies'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TextField } from '../../components/ui/TextField'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { NotKeptNotice, useQueuedText } from '../../components/sync/QueuedNotice'
import { useLocale } from '../../i18n/use-locale'
import { errorMessage } from '../../lib/api'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer, withdraw, type Queued } from '../../sync/await-server'
import { NotKeptError } from '../../sync/outcomes'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { useRefusalText } from '../sync-status/refusal'
import { assemblyFormErrors, assemblyFormOf, emptyAssemblyForm, requestOf, type AssemblyFormErrors, type AssemblyFormValues } from './assembly-form'
import { changedAssemblyFields, createAssembly, updateAssembly } from './assembly-mutations'
import { meetingTime } from './format'
import { useAssembly, type AssemblyView } from './use-assemblies'

/**
 * Calling (no id) or editing a general assembly (docs/PRODUCT.md "General assembly"): company
 * admin staff of the current company. Queued in the outbox, so it works offline.
 */
export function AssemblyFormPage({ id }: { id?: string }) {
  const { t } = useLingui()
  usePageTitle(id ? t`Edit general assembly` : t`New general assembly`)
  const handle = useSync()
  const record = useAssembly(handle, id ?? '')
  const user = useSession().user
  const existing = id ? (record?.row as AssemblyView | null | undefined) : null
  const company = user?.currentCompany ?? null
  const manager = !!user && (user.userRole === 'SUPERADMIN' || isCompanyAdminStaff(roleOf(user)))

  const body = () => {
    if (!handle || (id && (record === undefined || (!existing && record.absent === 'loading')))) return <Spinner label={t`Loading`} />
    if (id && !existing)
      return <RecordMissing absent={record?.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>General assembly not found.</Trans>} />
    const companyId = existing?.companyId ?? company?.id ?? null
    if (!manager || !companyId)
      return (
        <Alert variant="info">
          <Trans>Only the chairman, the administrator and the accountant of the association can call a general assembly.</Trans>
        </Alert>
      )
    if (existing && existing.status !== 'PLANNED')
      return (
        <Alert variant="error">
          <Trans>Only a planned general assembly can be changed.</Trans>
        </Alert>
      )
    return <AssemblyForm handle={handle} companyId={companyId} companyName={existing?.companyName ?? company?.name ?? ''} existing={existing ?? null} />
  }

  return (
    <div className="page page-narrow assembly-form-page">
      <div className="page-header">
        <Link to={(id ? `/assemblies/${id}` : '/assemblies') as never} className={buttonClass('link')}>
          {id ?
            <Trans>← Back to the general assembly</Trans>
          : <Trans>← Back to general assemblies</Trans>}
        </Link>
      </div>
      <h1>
        {id ?
          <Trans>Edit general assembly</Trans>
        : <Trans>New general assembly</Trans>}
      </h1>
      {body()}
    </div>
  )
}

function AssemblyForm(props: { handle: SyncHandle; companyId: string; companyName: string; existing: AssemblyView | null }) {
  const { handle, companyId, companyName, existing } = props
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  // The assembly as it was when the form opened: only what the user changed against it is sent, on its version.
  const [opened] = useState(existing)
  const [values, setValues] = useState<AssemblyFormValues>(() => (existing ? assemblyFormOf(existing) : emptyAssemblyForm()))
  const nextKey = useRef(values.agenda.length)
  const [keys, setKeys] = useState(() => values.agenda.map((_, i) => i))
  const [errors, setErrors] = useState<AssemblyFormErrors & { form?: string }>({})
  const [busy, setBusy] = useState(false)
  const [notKept, setNotKept] = useState<NotKeptError | null>(null)
  const queuedText = useQueuedText()
  const refusalText = useRefusalText()
  const noticeOut = !!existing?.noticeSentAt
  const set = <K extends keyof AssemblyFormValues>(key: K, value: AssemblyFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    // A field the user changes no longer shows what was wrong with it before.
    setErrors((e) => ({ ...e, [key]: undefined }))
  }

  const setItem = (i: number, text: string) => {
    set(
      'agenda',
      values.agenda.map((item, j) => (j === i ? text : item)),
    )
    setErrors((e) => ({ ...e, [`agenda.${i}`]: undefined }))
  }
  const addItem = () => {
    set('agenda', [...values.agenda, ''])
    setKeys((k) => [...k, nextKey.current++])
    // The new item's field gets the focus once it is there.
    setTimeout(() => document.querySelector<HTMLInputElement>(`#agenda-item-${values.agenda.length}`)?.focus(), 0)
  }
  const removeItem = (i: number) => {
    set(
      'agenda',
      values.agenda.filter((_, j) => j !== i),
    )
    setKeys((k) => k.filter((_, j) => j !== i))
    // The items after it move up: their errors no longer belong to them.
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([key]) => !key.startsWith('agenda.'))))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const heldAtChanged = !opened || values.heldAt !== assemblyFormOf(opened).heldAt
    const deadlineChanged = !opened || values.proposalDeadline !== assemblyFormOf(opened).proposalDeadline
    const deadlinePassed = typeof opened?.proposalDeadline === 'string' && opened.proposalDeadline <= new Date().toISOString()
    const next = assemblyFormErrors(values, i18n, { noticeOut, heldAtChanged, deadlineChanged, deadlinePassed })
    setErrors(next)
    if (Object.keys(next).length) {
      // The first field that needs attention gets the focus.
      setTimeout(() => document.querySelector<HTMLElement>('.assembly-form [aria-invalid="true"]')?.focus(), 0)
      return
    }
    const id = existing?.id ?? crypto.randomUUID()
    const data = CreateAssemblyRequest.parse(requestOf(values, companyId, id))
    setBusy(true)
    setNotKept(null)
    const queued: Queued[] = []
    try {
      try {
        if (opened) {
          const changes = changedAssemblyFields(opened, {
            title: data.title,
            heldAt: data.heldAt,
            place: data.place,
            agenda: data.agenda,
            proposalDeadline: data.proposalDeadline,
            reminderDays: data.reminderDays,
            ...(noticeOut ? {} : { noticeAt: data.noticeAt ?? null }),
          })
          if (changes) queued.push(await updateAssembly(handle, opened, changes))
        } else queued.push(await createAssembly(handle, { ...data, id }, { companyName }))
      } catch (error) {
        if (!(error instanceof NotKeptError)) throw error
        // Not stored on this device: nothing of it will be sent. Said plainly; what was typed stays.
        setNotKept(error)
        return
      }
      if (!queued.length) {
        showToast('info', t`Nothing was changed.`)
        void navigate({ to: `/assemblies/${id}` as never })
        return
      }
      // Success only once the server has it; until then it is queued (docs/OFFLINE.md "Conflicts and refusals").
      const result = await awaitServer(handle, queued)
      if (result.outcome === 'rejected') {
        await withdraw(handle.db, queued)
        setErrors({ form: refusalText(result.mutation) || result.mutation.lastError || t`The server refused the request.` })
        return
      }
      if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else if (result.outcome === 'accepted') showToast('success', t`The general assembly is saved.`)
      void navigate({ to: `/assemblies/${id}` as never })
    } catch (error) {
      setErrors({ form: errorMessage(error, t`Failed to save the general assembly`) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form assembly-form card" noValidate onSubmit={(e) => void submit(e)}>
      {errors.form && <Alert variant="error">{errors.form}</Alert>}
      {notKept && <NotKeptNotice error={notKept} />}
      <TextField label={t`Title`} value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} maxLength={200} />
      <TextField
        type="datetime-local"
        label={t`Date and time (Danish time)`}
        value={values.heldAt}
        onChange={(e) => set('heldAt', e.target.value)}
        error={errors.heldAt}
      />
      <TextField label={t`Place`} value={values.place} onChange={(e) => set('place', e.target.value)} error={errors.place} maxLength={200} />
      <fieldset className="fieldset assembly-agenda">
        <legend className="field-label">
          <Trans>Agenda</Trans>
        </legend>
        {errors.agenda && (
          <p className="field-error" id="agenda-error">
            {errors.agenda}
          </p>
        )}
        <ol className="assembly-agenda-items">
          {values.agenda.map((item, i) => (
            <li key={keys[i]} className="assembly-agenda-item">
              <TextField
                id={`agenda-item-${i}`}
                label={t`Item ${i + 1}`}
                value={item}
                onChange={(e) => setItem(i, e.target.value)}
                error={errors[`agenda.${i}`]}
                maxLength={300}
              />
              {values.agenda.length > 1 && (
                <Button variant="ghost" size="sm" onClick={() => removeItem(i)} aria-label={t`Remove item ${i + 1}`}>
                  <Trans>Remove</Trans>
                </Button>
              )}
            </li>
          ))}
        </ol>
        <Button variant="secondary" size="sm" onClick={addItem}>
          <Trans>Add agenda item</Trans>
        </Button>
      </fieldset>
      <TextField
        type="datetime-local"
        label={t`Deadline for proposals (Danish time)`}
        value={values.proposalDeadline}
        onChange={(e) => set('proposalDeadline', e.target.value)}
        error={errors.proposalDeadline}
        hint={t`Members can submit proposals until then; it must be before the meeting.`}
      />
      {noticeOut ?
        <p className="assembly-notice-out">
          <Trans>The notice went out {meetingTime(existing!.noticeSentAt!, locale)}.</Trans>
        </p>
      : <fieldset className="fieldset">
          <legend className="field-label">
            <Trans>Notice of the meeting</Trans>
          </legend>
          <label className="checkbox-row">
            <input type="radio" name="notice-mode" checked={values.noticeMode === 'now'} onChange={() => set('noticeMode', 'now')} />
            <span>
              <Trans>Send the notice at once</Trans>
            </span>
          </label>
          <label className="checkbox-row">
            <input type="radio" name="notice-mode" checked={values.noticeMode === 'at'} onChange={() => set('noticeMode', 'at')} />
            <span>
              <Trans>Send the notice at a chosen time</Trans>
            </span>
          </label>
          {values.noticeMode === 'at' && (
            <TextField
              type="datetime-local"
              label={t`Notice goes out (Danish time)`}
              value={values.noticeAt}
              onChange={(e) => set('noticeAt', e.target.value)}
              error={errors.noticeAt}
            />
          )}
        </fieldset>
      }
      <TextField
        label={t`Reminders (days before the meeting)`}
        value={values.reminders}
        onChange={(e) => set('reminders', e.target.value)}
        error={errors.reminders}
        inputMode="numeric"
        hint={t`Separated by commas, e.g. 14, 2. Leave empty for no reminders.`}
      />
      <p className="field-hint">
        <Trans>Every member gets the notice and the reminders in the app and by e-mail, in their own language.</Trans>
      </p>
      <div className="form-actions">
        <Button type="submit" busy={busy}>
          {existing ?
            <Trans>Save changes</Trans>
          : <Trans>Call the general assembly</Trans>}
        </Button>
      </div>
    </form>
  )
}
