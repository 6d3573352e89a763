import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useLocation, useNavigate } from '@tanstack/react-router'
import { CreateMessageRequest, messageTypes, type MessageType, type RecipientTarget } from '../../../shared/contract/messages'
import { isCompanyStaff } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { SelectField, TextAreaField, TextField } from '../../components/ui/TextField'
import { errorMessage } from '../../lib/api'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer, withdraw, type Queued } from '../../sync/await-server'
import { NotKeptError } from '../../sync/outcomes'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { messagesBase } from './base-path'
import { messageTypeLabels } from './labels'
import { createDraft, sendDraft, updateDraft } from './message-mutations'
import { useMessage, type MessageView } from './use-messages'
import { useRecipientOptions, type RecipientOptions } from './use-recipient-options'
import { translateIssue } from '../../lib/form-issues'
import { messages } from '../../../shared/i18n-messages'
import { isScheduleAhead } from './schedule'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { NotKeptNotice, useQueuedText } from '../../components/sync/QueuedNotice'
import { useRefusalText } from '../sync-status/refusal'
import { sendAnonymous } from './anonymous'

type Errors = Partial<Record<'subject' | 'recipient' | 'body' | 'scheduledAt' | 'form', string>>

const encode = (r: MessageView['recipient'] | undefined): string =>
  !r ? ''
  : r.kind === 'MEMBER' ? `MEMBER:${r.userId}`
  : r.kind === 'ADDRESS' ? `ADDRESS:${r.addressId}`
  : r.kind
function decode(value: string): RecipientTarget | undefined {
  const [kind, id] = value.split(':')
  if (kind === 'ALL_MEMBERS' || kind === 'BOARD') return { kind }
  if (kind === 'MEMBER' && id) return { kind, userId: id }
  if (kind === 'ADDRESS' && id) return { kind, addressId: id }
  return undefined
}

/** Create (no id) or edit a draft (docs/PRODUCT.md §2, §5). Queued in the outbox, so it works offline; an anonymous message is sent at once. */
export function MessageFormPage({ id }: { id?: string }) {
  const { t } = useLingui()
  usePageTitle(id ? t`Edit message` : t`Write a message`)
  const base = messagesBase(useLocation().pathname)
  const handle = useSync()
  const record = useMessage(handle, id ?? '')
  const user = useSession().user
  const staffRole = user ? isCompanyStaff(roleOf(user)) || user.userRole === 'SUPERADMIN' : false
  const existing = id ? (record?.row as MessageView | null | undefined) : null
  const staffCompany = staffRole ? (user?.currentCompany?.id ?? null) : null
  const options = useRecipientOptions(handle, existing?.companyId ?? staffCompany)

  const body = () => {
    if (!handle || !options || (id && (record === undefined || (!existing && record.absent === 'loading')))) return <Spinner label={t`Loading`} />
    if (id && !existing) return <RecordMissing absent={record?.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Message not found.</Trans>} />
    if (id && existing?.status !== 'DRAFT')
      return (
        <Alert variant="error">
          <Trans>Only a draft can be changed or sent.</Trans>
        </Alert>
      )
    const companyId = existing?.companyId ?? staffCompany ?? options.residentOf[0] ?? null
    if (!companyId)
      return (
        <Alert variant="info">
          <Trans>You can write messages once you are a member of an association.</Trans>
        </Alert>
      )
    return (
      <MessageForm
        handle={handle}
        base={base}
        companyId={companyId}
        staff={!!staffCompany && companyId === staffCompany}
        options={options}
        existing={existing ?? null}
      />
    )
  }

  return (
    <div className="page page-narrow message-form-page">
      <div className="page-header">
        <Link to={(id ? `${base}/${id}` : base) as never} className={buttonClass('link')}>
          {id ?
            <Trans>← Back to the message</Trans>
          : <Trans>← Back to messages</Trans>}
        </Link>
      </div>
      <h1>
        {id ?
          <Trans>Edit message</Trans>
        : <Trans>Write a message</Trans>}
      </h1>
      {body()}
    </div>
  )
}

function MessageForm(props: { handle: SyncHandle; base: string; companyId: string; staff: boolean; options: RecipientOptions; existing: MessageView | null }) {
  const { handle, base, companyId, staff, options, existing } = props
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const user = useSession().user!
  // The draft as it was when the form opened: a later sync does not move it, so only what the user
  // changed against it is sent, on its version (a change made meanwhile elsewhere is merged, not undone).
  const [opened] = useState(existing)
  const [type, setType] = useState<MessageType>(existing?.type ?? (staff ? 'NOTICE' : 'MESSAGE'))
  const [recipient, setRecipient] = useState(
    existing ? encode(existing.recipient)
    : staff ? ''
    : 'BOARD',
  )
  const [subject, setSubject] = useState(existing?.subject ?? '')
  const [content, setContent] = useState(existing?.body ?? '')
  const [later, setLater] = useState(!!existing?.scheduledAt)
  const [scheduledAt, setScheduledAt] = useState(existing?.scheduledAt ?? '')
  const [anonymous, setAnonymous] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  const [notKept, setNotKept] = useState<NotKeptError | null>(null)
  const queuedText = useQueuedText()
  const refusalText = useRefusalText()

  const recipientOptions = [
    { value: '', label: t`Choose recipient` },
    ...(staff ? [{ value: 'ALL_MEMBERS', label: t`All members` }] : []),
    { value: 'BOARD', label: t`The board` },
    ...(staff ? options.addresses.map((a) => ({ value: `ADDRESS:${a.id}`, label: t`Everyone at ${a.label}` })) : []),
    ...(staff ? options.members.filter((m) => m.userId !== user.id).map((m) => ({ value: `MEMBER:${m.userId}`, label: m.name })) : []),
  ]
  const labelOf = (value: string) =>
    value.startsWith('MEMBER:') || value.startsWith('ADDRESS:') ? (recipientOptions.find((o) => o.value === value)?.label ?? null) : null

  const submit = async (event: FormEvent, mode: 'send' | 'draft') => {
    event.preventDefault()
    const input = {
      id: existing?.id ?? crypto.randomUUID(),
      companyId,
      type,
      subject,
      body: content,
      recipient: decode(recipient),
      scheduledAt: later && scheduledAt ? scheduledAt : null,
    }
    const parsed = CreateMessageRequest.safeParse(input)
    const next: Errors = {}
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof Errors] ??= translateIssue(issue, i18n)
    if (later && !scheduledAt) next.scheduledAt = t`Please enter a date and time for sending.`
    // A time already passed is refused by the server: say so here and keep the user's edit (decision 0041).
    else if (later && scheduledAt && !next.scheduledAt && !isScheduleAhead(scheduledAt)) next.scheduledAt = i18n._(messages.messageScheduleInPast.id)
    setErrors(next)
    if (Object.keys(next).length || !parsed.success) {
      document.querySelector<HTMLElement>('.message-form [aria-invalid="true"]')?.focus()
      return
    }
    const data = parsed.data
    setBusy(true)
    setNotKept(null)
    try {
      if (anonymous) {
        // Online only and never queued: nothing of an anonymous message stays on this device.
        await sendAnonymous({ companyId, subject: data.subject, body: data.body })
        showToast('success', t`Your anonymous message was sent to the board.`)
        void navigate({ to: base as never })
        return
      }
      const recipientLabel = labelOf(recipient)
      const queued: Queued[] = []
      try {
        if (opened) {
          const update = await updateDraft(
            handle,
            opened,
            { type: data.type, subject: data.subject, body: data.body, recipient: data.recipient, scheduledAt: data.scheduledAt ?? null },
            recipientLabel,
          )
          // Nothing changed: nothing to save (a send still goes).
          if (update) queued.push(update)
        } else {
          queued.push(
            await createDraft(
              handle,
              { ...data, id: data.id! },
              {
                sender: { id: user.id, fullName: user.fullName, emailAddress: user.emailAddress },
                companyName: user.currentCompany?.name ?? '',
                recipientLabel,
              },
            ),
          )
        }
        if (mode === 'send' && !data.scheduledAt) queued.push(await sendDraft(handle, data.id!))
      } catch (error) {
        if (!(error instanceof NotKeptError)) throw error
        // Not stored on this device: nothing of it will be sent. Said plainly; what was typed stays.
        await withdraw(handle.db, queued)
        setNotKept(error)
        return
      }
      // Success only once the server has it; until then it is queued (docs/OFFLINE.md "Conflicts and refusals").
      const result = await awaitServer(handle, queued)
      if (result.outcome === 'rejected') {
        // Refused: the form says why and keeps what was typed; the refused change (and what waited on it) is taken back.
        await withdraw(handle.db, queued)
        setErrors({ form: refusalText(result.mutation) || result.mutation.lastError || t`The server refused the request.` })
        return
      }
      if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      // A conflict is shown where the message is (and in the sync panel), for the user to choose.
      else if (result.outcome === 'accepted')
        showToast(
          'success',
          mode === 'send' ?
            data.scheduledAt ?
              t`The message is scheduled.`
            : t`The message was sent.`
          : t`The draft is saved.`,
        )
      // docs/PRODUCT.md §2: after a create back to the list; after an update to the message.
      void navigate({ to: (existing ? `${base}/${existing.id}` : base) as never })
    } catch (error) {
      setErrors({ form: errorMessage(error, t`Failed to send message. Please try again.`) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form message-form card" noValidate onSubmit={(e) => void submit(e, 'send')}>
      {errors.form && <Alert variant="error">{errors.form}</Alert>}
      {notKept && <NotKeptNotice error={notKept} />}
      {staff && (
        <SelectField
          label={t`Type`}
          value={type}
          onChange={(e) => setType(e.target.value as MessageType)}
          options={messageTypes.map((v) => ({ value: v, label: i18n._(messageTypeLabels[v]) }))}
        />
      )}
      <SelectField
        label={t`Recipient`}
        value={recipient}
        onChange={(e) => setRecipient(e.target.value)}
        options={recipientOptions}
        error={errors.recipient}
        disabled={!staff}
      />
      <TextField label={t`Subject`} value={subject} onChange={(e) => setSubject(e.target.value)} error={errors.subject} maxLength={200} />
      <TextAreaField
        label={t`Content`}
        rows={8}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        error={errors.body}
        hint={t`Line breaks are kept; simple formatting such as <b>bold</b> is allowed.`}
      />
      {!staff && !existing && (
        <label className="checkbox">
          <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} />{' '}
          <Trans>Send anonymously (the board cannot see who wrote it; it is sent at once and not kept in your messages)</Trans>
        </label>
      )}
      {!anonymous && (
        <>
          <label className="checkbox">
            <input type="checkbox" checked={later} onChange={(e) => setLater(e.target.checked)} /> <Trans>Send later</Trans>
          </label>
          {later && (
            <TextField
              type="datetime-local"
              label={t`Send at (Danish time)`}
              value={scheduledAt}
              onChange={(e) => setScheduledAt(e.target.value)}
              error={errors.scheduledAt}
            />
          )}
        </>
      )}
      <div className="form-actions">
        {!anonymous && (
          <Button variant="secondary" disabled={busy} onClick={(e) => void submit(e, 'draft')}>
            <Trans>Save draft</Trans>
          </Button>
        )}
        <Button type="submit" busy={busy}>
          {later && !anonymous ?
            <Trans>Schedule</Trans>
          : <Trans>Send</Trans>}
        </Button>
      </div>
    </form>
  )
}
