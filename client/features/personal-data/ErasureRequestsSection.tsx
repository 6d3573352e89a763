import { useCallback, useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { ErasureDate, recordedChannels, type ErasureRequest } from '../../../shared/contract/personal-data'
import { messages } from '../../../shared/i18n-messages'
import { personName } from '../../../shared/erased-person'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { SelectField, TextAreaField, TextField } from '../../components/ui/TextField'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { useLocale } from '../../i18n/use-locale'
import { createActionKey, errorMessage } from '../../lib/api'
import { formatDate, formatDateTime } from '../../lib/format'
import { translateIssue } from '../../lib/form-issues'
import { useSharedQuery } from '../../sync/shared-query'
import type { Row } from '../../sync/local-db'
import { useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { companyAgreementsQuery, copenhagenToday, erasablePeople } from './erasable-people'
import { ErasureTerms } from './ErasureTerms'
import { channelLabels, statusBadge, statusLabels } from './labels'
import { approveErasureRequest, companyErasureRequests, recordErasureRequest, rejectErasureRequest } from './personal-data-api'
import './personal-data.css'

/**
 * Erasure requests on the company's Users tab (decision 0080, docs/PRIVACY.md): its staff see every
 * request with its audit and record one a member made by letter, e-mail, phone or in person; the
 * chairman, the administrator or the super admin approves one someone else filed or recorded,
 * which erases the member, or rejects it with a reason. Needs a connection.
 */
export function useErasureAccess(companyId: string): { staff: boolean; handler: boolean } {
  const user = useSession().user
  const role = user?.companies.find((c) => c.id === companyId)?.role
  const superAdmin = user?.userRole === 'SUPERADMIN'
  return { staff: superAdmin || role !== undefined, handler: superAdmin || role === 'CHAIRMAN' || role === 'ADMINISTRATOR' }
}

type Dialog = { kind: 'record' } | { kind: 'approve' | 'reject'; request: ErasureRequest } | null

export function ErasureRequestsSection({ handle, companyId, members }: { handle: SyncHandle; companyId: string; members: readonly Row[] }) {
  const { t } = useLingui()
  const online = useSyncStatus(handle).online
  const { staff } = useErasureAccess(companyId)
  const [requests, setRequests] = useState<ErasureRequest[] | null>(null)
  const [dialog, setDialog] = useState<Dialog>(null)
  const [done, setDone] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const reason = 'erasure-requests-offline'

  const load = useCallback(async () => {
    try {
      setRequests(await companyErasureRequests(companyId))
    } catch (e) {
      setProblem(errorMessage(e, t`The erasure requests could not be loaded. Please try again.`))
    }
  }, [companyId, t])
  useEffect(() => {
    if (staff && online) void load()
  }, [staff, online, load])
  if (!staff) return null

  const finished = (message: string) => {
    setDialog(null)
    setDone(message)
    void load()
    void handle.engine.syncNow()
  }

  return (
    <section className="card erase-member" aria-labelledby="erasure-requests-title">
      <h2 id="erasure-requests-title">
        <Trans>Erasure requests</Trans>
      </h2>
      <p>
        <Trans>
          A member’s personal data is erased only on their own request, once another member of staff has approved it. Members ask from their profile; record
          here a request made by letter, e-mail, phone or in person. Invoices and credit notes are kept, as the Bookkeeping Act requires.
        </Trans>
      </p>
      {!online && (
        <OfflineReason id={reason}>
          <Trans>You are offline. Erasure requests need a connection.</Trans>
        </OfflineReason>
      )}
      {done && <Alert variant="success">{done}</Alert>}
      {problem && <Alert variant="error">{problem}</Alert>}
      <div className="button-row">
        <Button variant="secondary" onClick={() => setDialog({ kind: 'record' })} {...offlineDisabled(online, reason)}>
          <Trans>Record a request…</Trans>
        </Button>
      </div>
      {requests && <RequestList companyId={companyId} requests={requests} online={online} reason={reason} onDecide={setDialog} />}
      {dialog?.kind === 'record' && <RecordDialog handle={handle} companyId={companyId} members={members} onCancel={() => setDialog(null)} onDone={finished} />}
      {dialog?.kind === 'approve' && <ApproveDialog companyId={companyId} request={dialog.request} onCancel={() => setDialog(null)} onDone={finished} />}
      {dialog?.kind === 'reject' && <RejectDialog companyId={companyId} request={dialog.request} onCancel={() => setDialog(null)} onDone={finished} />}
    </section>
  )
}

/** The requests, newest first, each with its audit and the actions the signed-in user may take. */
function RequestList({
  companyId,
  requests,
  online,
  reason,
  onDecide,
}: {
  companyId: string
  requests: ErasureRequest[]
  online: boolean
  reason: string
  onDecide: (dialog: Dialog) => void
}) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const selfId = useSession().user?.id
  const { handler } = useErasureAccess(companyId)
  if (!requests.length)
    return (
      <p className="empty">
        <Trans>No erasure requests yet.</Trans>
      </p>
    )
  return (
    <ul className="erasure-request-list">
      {requests.map((r) => {
        const name = personName(r.personName, i18n) ?? ''
        const recorder = personName(r.recordedByName, i18n) ?? ''
        const decider = personName(r.decidedByName ?? undefined, i18n) ?? ''
        const channel = i18n._(channelLabels[r.channel])
        const mayApprove = handler && r.recordedByUserId !== selfId && r.userId !== selfId
        const mayReject = handler || (r.channel !== 'APP' && r.recordedByUserId === selfId)
        return (
          <li key={r.id} className="erasure-request-item">
            <span className="erasure-request-head">
              <strong>{name}</strong> <Badge variant={statusBadge[r.status]}>{i18n._(statusLabels[r.status])}</Badge>
            </span>
            <span className="muted">
              <Trans>
                Asked on {formatDate(r.requestedOn, locale)} ({channel}); recorded by {recorder} at {formatDateTime(r.recordedAt, locale)}
              </Trans>
            </span>
            {r.decidedAt && (
              <span className="muted">
                <Trans>
                  Decided by {decider} at {formatDateTime(r.decidedAt, locale)}
                </Trans>
                {r.decisionNote && (
                  <>
                    {' · '}
                    <Trans>Reason: {r.decisionNote}</Trans>
                  </>
                )}
              </span>
            )}
            {r.status === 'PENDING' && handler && !mayApprove && (
              <span className="muted">
                <Trans>You recorded this request; another member of staff approves it.</Trans>
              </span>
            )}
            {r.status === 'PENDING' && (mayApprove || mayReject) && (
              <div className="button-row">
                {mayApprove && (
                  <Button variant="danger" size="sm" onClick={() => onDecide({ kind: 'approve', request: r })} {...offlineDisabled(online, reason)}>
                    <Trans>
                      Approve and erase… <span className="sr-only">{name}</span>
                    </Trans>
                  </Button>
                )}
                {mayReject && (
                  <Button variant="secondary" size="sm" onClick={() => onDecide({ kind: 'reject', request: r })} {...offlineDisabled(online, reason)}>
                    <Trans>
                      Reject… <span className="sr-only">{name}</span>
                    </Trans>
                  </Button>
                )}
              </div>
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** Runs a dialog's step with its busy state, problem and Idempotency-Key kept across retries. */
function useStep() {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [action] = useState(createActionKey)
  const run = async (step: (action: ReturnType<typeof createActionKey>) => Promise<unknown>, failed: string, done: () => void) => {
    setBusy(true)
    setProblem(null)
    try {
      await step(action)
      done()
    } catch (e) {
      setProblem(errorMessage(e, failed))
    } finally {
      setBusy(false)
    }
  }
  return { busy, problem, run }
}

function RecordDialog({
  handle,
  companyId,
  members,
  onCancel,
  onDone,
}: {
  handle: SyncHandle
  companyId: string
  members: readonly Row[]
  onCancel: () => void
  onDone: (message: string) => void
}) {
  const { t, i18n } = useLingui()
  const user = useSession().user
  const agreements = useSharedQuery(handle.db, companyAgreementsQuery(companyId))
  const people = erasablePeople(members, agreements ?? [], user?.id)
  const [chosen, setChosen] = useState('')
  const [channel, setChannel] = useState<(typeof recordedChannels)[number]>('LETTER')
  const [requestedOn, setRequestedOn] = useState(copenhagenToday)
  const [dateError, setDateError] = useState<string | null>(null)
  const { busy, problem, run } = useStep()
  const person = people.find((p) => p.userId === chosen)

  const confirm = () => {
    if (!person) return
    const date = ErasureDate.safeParse(requestedOn)
    if (!date.success || requestedOn > copenhagenToday()) {
      setDateError(date.success ? i18n._(messages.erasureDateInvalid) : translateIssue(date.error.issues[0]!, i18n))
      return
    }
    void run(
      (action) => recordErasureRequest(companyId, { userId: person.userId, channel, requestedOn }, action),
      t`Recording the request did not succeed. Please try again.`,
      () => onDone(t`The request of ${person.name} was recorded. Another member of staff approves it.`),
    )
  }

  return (
    <ConfirmDialog
      open
      title={<Trans>Record an erasure request</Trans>}
      tone="primary"
      confirmLabel={<Trans>Record</Trans>}
      busy={busy}
      onConfirm={confirm}
      onCancel={onCancel}
    >
      <p>
        <Trans>Only a request the member made themselves. Staff members cannot be erased while they hold their role.</Trans>
      </p>
      <div className="erase-dialog-fields">
        {problem && <Alert variant="error">{problem}</Alert>}
        <SelectField
          label={t`Member`}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          options={[{ value: '', label: t`Choose a member` }, ...people.map((p) => ({ value: p.userId, label: p.email ? `${p.name} (${p.email})` : p.name }))]}
        />
        <SelectField
          label={t`How the member asked`}
          value={channel}
          onChange={(e) => setChannel(e.target.value as typeof channel)}
          options={recordedChannels.map((c) => ({ value: c, label: i18n._(channelLabels[c]) }))}
        />
        <TextField
          label={t`Date of the request`}
          type="date"
          value={requestedOn}
          max={copenhagenToday()}
          error={dateError}
          onChange={(e) => {
            setRequestedOn(e.target.value)
            setDateError(null)
          }}
        />
      </div>
    </ConfirmDialog>
  )
}

/** What the approve and reject dialogs are given: the request decided on, and what to do after. */
interface DecisionDialogProps {
  companyId: string
  request: ErasureRequest
  onCancel: () => void
  onDone: (message: string) => void
}

function ApproveDialog({ companyId, request, onCancel, onDone }: DecisionDialogProps) {
  const { t, i18n } = useLingui()
  const { busy, problem, run } = useStep()
  const name = personName(request.personName, i18n) ?? ''
  const erasedName = i18n._(messages.erasedMember)
  return (
    <ConfirmDialog
      open
      title={<Trans>Approve and erase the personal data of {name}?</Trans>}
      // Short: a long Danish word in the button would widen the dialog past a phone's screen.
      confirmLabel={<Trans>Erase</Trans>}
      busy={busy}
      onConfirm={() =>
        void run(
          (action) => approveErasureRequest(companyId, request.id, action),
          t`Erasing did not succeed. Please try again.`,
          () => onDone(t`The personal data of ${name} was erased. The member now shows as “${erasedName}”.`),
        )
      }
      onCancel={onCancel}
    >
      <p>
        <Trans>This cannot be undone.</Trans>
      </p>
      <ErasureTerms />
      {problem && <Alert variant="error">{problem}</Alert>}
    </ConfirmDialog>
  )
}

function RejectDialog({ companyId, request, onCancel, onDone }: DecisionDialogProps) {
  const { t, i18n } = useLingui()
  const { busy, problem, run } = useStep()
  const [note, setNote] = useState('')
  const [noteError, setNoteError] = useState<string | null>(null)
  const name = personName(request.personName, i18n) ?? ''
  const confirm = () => {
    if (!note.trim() || note.trim().length > 500) {
      setNoteError(i18n._(messages.erasureNoteRequired))
      return
    }
    void run(
      (action) => rejectErasureRequest(companyId, request.id, note, action),
      t`Rejecting did not succeed. Please try again.`,
      () => onDone(t`The request of ${name} was rejected.`),
    )
  }
  return (
    <ConfirmDialog
      open
      title={<Trans>Reject the request of {name}?</Trans>}
      tone="primary"
      confirmLabel={<Trans>Reject</Trans>}
      busy={busy}
      onConfirm={confirm}
      onCancel={onCancel}
    >
      <p>
        <Trans>Nothing is erased. The reason is kept with the request and shown to staff and the member.</Trans>
      </p>
      <div className="erase-dialog-fields">
        {problem && <Alert variant="error">{problem}</Alert>}
        <TextAreaField
          label={t`Reason`}
          value={note}
          maxLength={500}
          error={noteError}
          onChange={(e) => {
            setNote(e.target.value)
            setNoteError(null)
          }}
        />
      </div>
    </ConfirmDialog>
  )
}
