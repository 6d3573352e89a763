import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { CreateProposalRequest } from '../../../shared/contract/assemblies'
import { proposalsOpen } from '../../../shared/domain/assembly'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TextAreaField, TextField } from '../../components/ui/TextField'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { NotKeptNotice, useQueuedText } from '../../components/sync/QueuedNotice'
import { useLocale } from '../../i18n/use-locale'
import { issuesByField } from '../../lib/form-issues'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer, withdraw, type Queued } from '../../sync/await-server'
import { NotKeptError } from '../../sync/outcomes'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useNotKeptText, useRefusalText } from '../sync-status/refusal'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import type { Mutation } from '../../sync/local-db'
import { actionAnswer } from './action-outcome'
import { cancelAssembly, markAssemblyHeld, submitProposal, withdrawProposal } from './assembly-mutations'
import { meetingTime } from './format'
import { assemblyStatusBadge, assemblyStatusLabels, proposalStatusLabels } from './labels'
import { useAssembly, useAssemblyDocuments, useProposals, type AssemblyView, type ProposalView } from './use-assemblies'
import { personName } from '../../../shared/erased-person'

/**
 * One general assembly (docs/PRODUCT.md "General assembly"): when and where, the agenda, the
 * deadline for proposals, the notice and reminders (sent or pending), its documents and the
 * proposals, with the submit form for members before the deadline. Read from the local copy, so
 * it works offline; its changes go through the outbox.
 */
export function AssemblyPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`General assembly`)
  const handle = useSync()
  const record = useAssembly(handle, id)
  const row = record?.row as AssemblyView | null | undefined
  return (
    <div className="page assembly-page">
      <div className="page-header">
        <Link to={'/assemblies' as never} className={buttonClass('link')}>
          <Trans>← Back to general assemblies</Trans>
        </Link>
      </div>
      {!handle || record === undefined || (!row && record.absent === 'loading') ?
        <Spinner label={t`Loading general assembly`} />
      : !row ?
        <RecordMissing absent={record.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>General assembly not found.</Trans>} />
      : <AssemblyDetails handle={handle} row={row} problems={record.problems} />}
    </div>
  )
}

/** The time the page opened: what it says about the deadline and the meeting's time holds from then. */
function useNow(): number {
  const [now] = useState(() => Date.now())
  return now
}

function AssemblyDetails({ handle, row, problems }: { handle: SyncHandle; row: AssemblyView; problems: Mutation[] }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const now = useNow()
  const nowIso = new Date(now).toISOString()
  const role = user?.companies.find((c) => c.id === row.companyId)?.role
  const manager = !!user && (user.userRole === 'SUPERADMIN' || (role !== undefined && isCompanyAdminStaff(role)))
  const planned = row.status === 'PLANNED'
  const status = row.status ?? 'PLANNED'
  const notKeptText = useNotKeptText()

  // On the version shown (If-Match): a change made meanwhile elsewhere is a conflict the user
  // resolves below, and a refusal is said in words; never silence.
  const act = async (make: () => Promise<Queued>, done: string) => {
    let queued: Queued
    try {
      queued = await make()
    } catch (error) {
      if (error instanceof NotKeptError) return showToast('error', notKeptText(error))
      throw error
    }
    const answer = actionAnswer(await awaitServer(handle, [queued]), done, i18n)
    showToast(answer.kind, answer.text)
  }
  const cancel = () => {
    if (!window.confirm(t`Cancel this general assembly? Members who had the notice are told.`)) return
    void act(() => cancelAssembly(handle, row), t`The general assembly is cancelled.`)
  }
  const held = () => void act(() => markAssemblyHeld(handle, row), t`The general assembly is marked as held.`)

  return (
    <>
      <h1 className="assembly-title">{row.title}</h1>
      <p className="assembly-meta">
        <Badge variant={assemblyStatusBadge[status]}>{i18n._(assemblyStatusLabels[status])}</Badge> <span className="muted">{row.companyName}</span>
        {row._pending && (
          <span className="pending-marker">
            <Trans>Not yet synced</Trans>
          </span>
        )}
      </p>
      {problems.length > 0 ?
        problems.map((m) => <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />)
      : row._rejected && <Alert variant="error">{row._rejected}</Alert>}
      {manager && planned && (
        <div className="form-actions form-actions-start assembly-actions">
          <Link to={`/assemblies/${row.id}/edit` as never} className={buttonClass('secondary')}>
            <Trans>Edit</Trans>
          </Link>
          {row.heldAt && row.heldAt <= nowIso && (
            <Button variant="secondary" onClick={held}>
              <Trans>Mark as held</Trans>
            </Button>
          )}
          <Button variant="danger" onClick={cancel}>
            <Trans>Cancel the general assembly</Trans>
          </Button>
        </div>
      )}
      <section className="card" aria-labelledby="assembly-when">
        <h2 id="assembly-when" className="sr-only">
          <Trans>When and where</Trans>
        </h2>
        <dl className="detail-list">
          <dt>
            <Trans>Date and time</Trans>
          </dt>
          <dd>{row.heldAt ? meetingTime(row.heldAt, locale) : ''}</dd>
          <dt>
            <Trans>Place</Trans>
          </dt>
          <dd className="cell-wrap">{row.place}</dd>
          <dt>
            <Trans>Deadline for proposals</Trans>
          </dt>
          <dd>{row.proposalDeadline ? meetingTime(row.proposalDeadline, locale) : ''}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="assembly-agenda">
        <h2 id="assembly-agenda">
          <Trans>Agenda</Trans>
        </h2>
        <ol className="assembly-agenda-list">
          {(row.agenda ?? []).map((item, i) => (
            <li key={i} className="cell-wrap">
              {item}
            </li>
          ))}
        </ol>
      </section>
      <Sendouts row={row} />
      <Documents handle={handle} row={row} manager={manager} />
      <Proposals
        handle={handle}
        row={row}
        nowIso={nowIso}
        staff={role !== undefined || user?.userRole === 'SUPERADMIN'}
        member={role !== undefined || user?.userRole !== 'SUPERADMIN'}
      />
    </>
  )
}

/** The notice and the reminders: when each goes out, and whether it has. */
function Sendouts({ row }: { row: AssemblyView }) {
  const { t } = useLingui()
  const locale = useLocale()
  const sendouts = row.sendouts ?? []
  return (
    <section className="card" aria-labelledby="assembly-sendouts">
      <h2 id="assembly-sendouts">
        <Trans>Notice and reminders</Trans>
      </h2>
      {sendouts.length === 0 ?
        <p className="empty">
          <Trans>Nothing more goes out for this general assembly.</Trans>
        </p>
      : <ul className="assembly-sendouts">
          {sendouts.map((s) => {
            const what = s.days === null ? t`Notice of the meeting` : t`Reminder ${s.days} days before`
            return (
              <li key={`${s.kind}:${s.days ?? ''}`} className="assembly-sendout">
                <span className="assembly-sendout-what">{what}</span>
                <span className="muted">{meetingTime(s.dueAt, locale)}</span>
                {s.sentAt ?
                  <Badge variant="success">
                    {s.recipients !== null ?
                      <Trans>Sent to {s.recipients} members</Trans>
                    : <Trans>Sent</Trans>}
                  </Badge>
                : <Badge variant="neutral">
                    <Trans>Pending</Trans>
                  </Badge>
                }
              </li>
            )
          })}
        </ul>
      }
    </section>
  )
}

/** The assembly's papers and minutes, from the documents feature's local table; staff add them there. */
function Documents({ handle, row, manager }: { handle: SyncHandle; row: AssemblyView; manager: boolean }) {
  const { t } = useLingui()
  const documents = useAssemblyDocuments(handle, row.id)
  return (
    <section className="card" aria-labelledby="assembly-documents">
      <div className="section-header">
        <h2 id="assembly-documents">
          <Trans>Documents</Trans>
        </h2>
        {manager && (
          <div className="form-actions form-actions-start">
            <Link to={`/documents/new?assemblyId=${row.id}` as never} className={buttonClass('secondary', 'sm')}>
              <Trans>Add document</Trans>
            </Link>
            <Link to={`/documents/new?assemblyId=${row.id}&category=MINUTES` as never} className={buttonClass('secondary', 'sm')}>
              <Trans>Add minutes</Trans>
            </Link>
          </div>
        )}
      </div>
      {!documents ?
        <Spinner label={t`Loading documents`} />
      : documents.length === 0 ?
        <p className="empty">
          <Trans>No documents yet.</Trans>
        </p>
      : <ul className="assembly-documents">
          {documents.map((d) => (
            <li key={d.id} className="cell-wrap">
              <Link to={`/documents/${d.id}` as never}>{d.title}</Link>
              {d.category === 'MINUTES' && (
                <>
                  {' '}
                  <Badge variant="info">
                    <Trans>Minutes</Trans>
                  </Badge>
                </>
              )}
              <span className="muted"> · {d.fileName}</span>
            </li>
          ))}
        </ul>
      }
    </section>
  )
}

function Proposals(props: { handle: SyncHandle; row: AssemblyView; nowIso: string; staff: boolean; member: boolean }) {
  const { handle, row, nowIso, staff, member } = props
  const { i18n } = useLingui()
  const locale = useLocale()
  const user = useSession().user
  const proposals = useProposals(handle, row.id)
  const open =
    row.status !== undefined && row.proposalDeadline !== undefined && proposalsOpen({ status: row.status, proposalDeadline: row.proposalDeadline }, nowIso)
  const notKeptText = useNotKeptText()
  const { t } = useLingui()

  const take = async (p: ProposalView) => {
    if (!window.confirm(t`Withdraw your proposal "${p.title ?? ''}"?`)) return
    let queued: Queued
    try {
      queued = await withdrawProposal(handle, { id: p.id, assemblyId: row.id })
    } catch (error) {
      if (error instanceof NotKeptError) return showToast('error', notKeptText(error))
      throw error
    }
    const answer = actionAnswer(await awaitServer(handle, [queued]), t`The proposal is withdrawn.`, i18n)
    showToast(answer.kind, answer.text)
  }

  return (
    <section className="card" aria-labelledby="assembly-proposals">
      <h2 id="assembly-proposals">
        <Trans>Proposals</Trans>
      </h2>
      <p className="muted">
        {open ?
          <Trans>Proposals can be submitted until {row.proposalDeadline ? meetingTime(row.proposalDeadline, locale) : ''}.</Trans>
        : <Trans>The deadline for proposals has passed.</Trans>}{' '}
        {!staff && open && <Trans>Other members' proposals are shown here once the deadline has passed.</Trans>}
      </p>
      {!proposals ?
        <Spinner label={t`Loading proposals`} />
      : proposals.length === 0 ?
        <p className="empty">
          <Trans>No proposals yet.</Trans>
        </p>
      : <ul className="assembly-proposals">
          {proposals.map((p) => {
            const mine = p.authorUserId === user?.id
            const status = p.status ?? 'SUBMITTED'
            return (
              <li key={p.id} className="assembly-proposal">
                <h3 className="assembly-proposal-title cell-wrap">{p.title}</h3>
                <p className="muted">
                  {mine ?
                    <Trans>By you</Trans>
                  : <Trans>By {personName(p.authorName, i18n)}</Trans>}{' '}
                  <Badge variant={status === 'SUBMITTED' ? 'info' : 'neutral'}>{i18n._(proposalStatusLabels[status])}</Badge>
                  {p._pending && (
                    <span className="pending-marker">
                      <Trans>Not yet synced</Trans>
                    </span>
                  )}
                </p>
                {p._rejected && <Alert variant="error">{p._rejected}</Alert>}
                <p className="assembly-proposal-body cell-wrap">{p.body}</p>
                {mine && open && status === 'SUBMITTED' && !p._pending && (
                  <Button variant="ghost" size="sm" onClick={() => void take(p)}>
                    <Trans>Withdraw</Trans>
                  </Button>
                )}
              </li>
            )
          })}
        </ul>
      }
      {open && member && <ProposalForm handle={handle} row={row} />}
    </section>
  )
}

function ProposalForm({ handle, row }: { handle: SyncHandle; row: AssemblyView }) {
  const { t, i18n } = useLingui()
  const user = useSession().user!
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [errors, setErrors] = useState<Partial<Record<'title' | 'body' | 'form', string>>>({})
  const [busy, setBusy] = useState(false)
  const [notKept, setNotKept] = useState<NotKeptError | null>(null)
  const queuedText = useQueuedText()
  const refusalText = useRefusalText()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = CreateProposalRequest.safeParse({ id: crypto.randomUUID(), title, body })
    if (!parsed.success) {
      setErrors(issuesByField<'title' | 'body'>(parsed.error.issues, i18n))
      setTimeout(() => document.querySelector<HTMLElement>('.proposal-form [aria-invalid="true"]')?.focus(), 0)
      return
    }
    setErrors({})
    setNotKept(null)
    setBusy(true)
    let queued: Queued[]
    try {
      queued = [await submitProposal(handle, { id: row.id, companyId: row.companyId! }, { ...parsed.data, id: parsed.data.id! }, user)]
    } catch (error) {
      setBusy(false)
      if (error instanceof NotKeptError) return setNotKept(error)
      throw error
    }
    try {
      const result = await awaitServer(handle, queued)
      if (result.outcome === 'rejected') {
        await withdraw(handle.db, queued)
        setErrors({ form: refusalText(result.mutation) || result.mutation.lastError || t`The server refused the request.` })
        return
      }
      setTitle('')
      setBody('')
      if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else if (result.outcome === 'accepted') showToast('success', t`Your proposal is submitted.`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form proposal-form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="proposal-form-title">
      <h3 id="proposal-form-title">
        <Trans>Submit a proposal</Trans>
      </h3>
      {errors.form && <Alert variant="error">{errors.form}</Alert>}
      {notKept && <NotKeptNotice error={notKept} />}
      <TextField label={t`Title of the proposal`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={200} />
      <TextAreaField label={t`The proposal`} rows={6} value={body} onChange={(e) => setBody(e.target.value)} error={errors.body} />
      <div className="form-actions form-actions-start">
        <Button type="submit" busy={busy}>
          <Trans>Submit proposal</Trans>
        </Button>
      </div>
    </form>
  )
}
