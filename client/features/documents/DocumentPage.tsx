import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import {
  UpdateDocumentRequest,
  type DocumentEvent,
  documentAudiences,
  documentCategories,
  type DocumentAudience,
  type DocumentCategory,
} from '../../../shared/contract/documents'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { RecordBody } from '../../components/sync/RecordBody'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { SelectField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { documentHistory, replaceDocumentFile } from './documents-api'
import { formatDate, formatDateTime } from '../../lib/format'
import { issuesByField } from '../../lib/form-issues'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSharedQuery } from '../../sync/shared-query'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { deleteDocument, updateDocument } from './document-mutations'
import { DocumentViewer } from './DocumentViewer'
import { audienceLabels, categoryLabels, formatSize } from './labels'
import { keptFilesQuery } from './offline-files'
import { useDocument, type DocumentView } from './use-documents'
import { useDocumentRights } from './use-staff'
import { personName } from '../../../shared/erased-person'

/** One document (decision 0062): its file shown in the page, and for staff its details, a new file, deletion and history. */
export function DocumentPage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Document`)
  const handle = useSync()
  const record = useDocument(handle, id)
  return (
    <div className="page document-page">
      <div className="page-header">
        <Link to="/documents" className={buttonClass('link')}>
          <Trans>← Back to documents</Trans>
        </Link>
      </div>
      <RecordBody<DocumentView> handle={handle} record={record} loading={t`Loading document`} notFound={<Trans>Document not found.</Trans>}>
        {(row, handle) => <DocumentDetails handle={handle} row={row} />}
      </RecordBody>
    </div>
  )
}

function DocumentDetails({ handle, row }: { handle: SyncHandle; row: DocumentView }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const kept = useSharedQuery(handle.db, keptFilesQuery)
  const rights = useDocumentRights(row.companyId)
  const onDevice = !!row.fileId && !!kept?.fileIds.has(row.fileId)
  return (
    <>
      <h1>{row.title}</h1>
      <p className="document-meta">
        {row.category && <Badge variant="neutral">{i18n._(categoryLabels[row.category])}</Badge>}{' '}
        {row.audience && <Badge variant="info">{i18n._(audienceLabels[row.audience])}</Badge>}{' '}
        {onDevice ?
          <Badge variant="success">
            <Trans>On this device</Trans>
          </Badge>
        : <span className="muted">
            <Trans>Not kept on this device yet</Trans>
          </span>
        }
        {row._pending && <PendingMarker />}
      </p>
      <p className="muted">
        {row.fileName} · {formatSize(row.size ?? 0, locale)}
        {row.createdAt && (
          <>
            {' · '}
            {row.uploadedBy ?
              <Trans>
                Added {formatDate(row.createdAt, locale)} by {personName(row.uploadedBy.fullName, i18n)}
              </Trans>
            : <Trans>Added {formatDate(row.createdAt, locale)}</Trans>}
          </>
        )}
      </p>
      <DocumentViewer handle={handle} doc={row} />
      {rights.manage && !row._pending && <DocumentAdmin handle={handle} row={row} staffAudience={rights.staffAudience} />}
    </>
  )
}

type Field = 'title' | 'category' | 'audience'

/** Staff: edit the details (queued, works offline), replace the file and see the history (online), delete (queued). */
function DocumentAdmin({ handle, row, staffAudience }: { handle: SyncHandle; row: DocumentView; staffAudience: boolean }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const queuedText = useQueuedText()
  const { online } = useSyncStatus(handle)
  const [title, setTitle] = useState(row.title ?? '')
  const [category, setCategory] = useState<DocumentCategory>(row.category ?? 'OTHER')
  const [audience, setAudience] = useState<DocumentAudience>(row.audience ?? 'MEMBERS')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [file, setFile] = useState<File | null>(null)
  const [replacing, setReplacing] = useState(false)
  const [replaceError, setReplaceError] = useState<string | null>(null)
  const [action] = useState(() => createActionKey())

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = UpdateDocumentRequest.safeParse({ title, category, audience })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    setErrors({})
    const queued = await updateDocument(handle, row as DocumentView & { _version: number }, parsed.data)
    if (!queued) return showToast('info', t`Nothing was changed.`)
    const result = await awaitServer(handle, [queued])
    if (result.outcome === 'accepted') showToast('success', t`The document was saved.`)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
  }

  const replace = async () => {
    if (!file) return setReplaceError(t`Please choose a file`)
    setReplacing(true)
    setReplaceError(null)
    try {
      await replaceDocumentFile(row.id, file, row._version, action)
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', t`The file was replaced.`)
      setFile(null)
    } catch (error) {
      setReplaceError(
        error instanceof ApiError && error.status === 0 ?
          t`The file could not be replaced: there is no connection. Try again when you are online.`
        : errorMessage(error, t`The file could not be replaced.`),
      )
    } finally {
      setReplacing(false)
    }
  }

  const remove = async () => {
    if (!window.confirm(t`Delete this document for everyone?`)) return
    const queued = await deleteDocument(handle, row as DocumentView & { _version: number })
    const result = await awaitServer(handle, [queued])
    if (result.outcome === 'accepted') showToast('success', t`The document was deleted.`)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
    void navigate({ to: '/documents' })
  }

  return (
    <section className="document-admin" aria-labelledby="document-admin-title">
      <h2 id="document-admin-title">
        <Trans>Manage document</Trans>
      </h2>
      <form className="form card" noValidate onSubmit={(e) => void save(e)}>
        <TextField label={t`Title`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={200} />
        <SelectField
          label={t`Category`}
          value={category}
          onChange={(e) => setCategory(e.target.value as DocumentCategory)}
          options={documentCategories.map((c) => ({ value: c, label: i18n._(categoryLabels[c]) }))}
        />
        <SelectField
          label={t`Who may read it`}
          value={audience}
          onChange={(e) => setAudience(e.target.value as DocumentAudience)}
          options={documentAudiences.filter((a) => a !== 'STAFF' || staffAudience).map((a) => ({ value: a, label: i18n._(audienceLabels[a]) }))}
        />
        <div className="form-actions">
          <Button type="submit">
            <Trans>Save</Trans>
          </Button>
        </div>
      </form>
      <div className="card">
        <div className="field">
          <label htmlFor="document-replace" className="field-label">
            <Trans>Replace the file</Trans>
          </label>
          <input id="document-replace" type="file" className="input" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          {replaceError && <p className="field-error">{replaceError}</p>}
        </div>
        <div className="form-actions">
          <Button variant="secondary" busy={replacing} disabled={replacing || !online} onClick={() => void replace()}>
            <Trans>Replace</Trans>
          </Button>
          <Button variant="danger" onClick={() => void remove()}>
            <Trans>Delete document</Trans>
          </Button>
        </div>
      </div>
      <DocumentHistory id={row.id} version={row._version} online={online} />
    </section>
  )
}

function DocumentHistory({ id, version, online }: { id: string; version: number; online: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const [open, setOpen] = useState(false)
  const [events, setEvents] = useState<DocumentEvent[] | null>(null)
  const [failed, setFailed] = useState(false)
  const load = () => {
    setFailed(false)
    documentHistory(id)
      .then(setEvents)
      .catch(() => setFailed(true))
  }
  const actions: Record<DocumentEvent['action'], string> = {
    UPLOADED: t`uploaded`,
    EDITED: t`changed the details`,
    REPLACED: t`replaced the file`,
    DELETED: t`deleted it`,
  }
  return (
    <details
      className="document-history"
      key={version}
      onToggle={(e) => {
        const nowOpen = e.currentTarget.open
        setOpen(nowOpen)
        if (nowOpen && !events && online) load()
      }}
    >
      <summary>
        <Trans>History</Trans>
      </summary>
      {!open ?
        null
      : !online && !events ?
        <p className="muted">
          <Trans>The history can be seen when you are online.</Trans>
        </p>
      : failed ?
        <Alert variant="error">
          <Trans>The history could not be loaded.</Trans>
        </Alert>
      : !events ?
        <Spinner label={t`Loading history`} />
      : <ul className="document-events">
          {events.map((e) => (
            <li key={e.id}>
              <span className="muted">{formatDateTime(e.createdAt, locale)}</span> {personName(e.user.fullName, i18n)} {actions[e.action]}
            </li>
          ))}
        </ul>
      }
    </details>
  )
}
