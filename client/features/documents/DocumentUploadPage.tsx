import { useMemo, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import {
  DocumentUploadFields,
  documentAudiences,
  documentCategories,
  MAX_DOCUMENT_BYTES,
  type DocumentAudience,
  type DocumentCategory,
} from '../../../shared/contract/documents'
import { attachmentTypes } from '../../../shared/contract/messages'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { SelectField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { uploadDocument } from './documents-api'
import { issuesByField } from '../../lib/form-issues'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { useSharedQuery } from '../../sync/shared-query'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { audienceLabels, categoryLabels, formatSize } from './labels'
import { useDocumentRights } from './use-staff'

type Field = 'title' | 'category' | 'audience' | 'file'

/**
 * Upload a document to the current company (staff). Online only: the file goes straight to the
 * server, which checks its type, size and scan. Opened from a general assembly with `assemblyId`
 * (and e.g. `category=MINUTES`), the document belongs to that assembly.
 */
export function DocumentUploadPage({ assemblyId, category: initialCategory }: { assemblyId?: string; category?: DocumentCategory }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Upload a document`)
  const navigate = useNavigate()
  const handle = useSync()
  const { online } = useSyncStatus(handle)
  const companyId = useSession().user?.currentCompany?.id ?? null
  const rights = useDocumentRights(companyId)
  const action = useMemo(() => createActionKey(), [])
  const assemblyQuery = useMemo(
    () => ({
      key: `assembly-title:${assemblyId ?? ''}`,
      tables: ['assemblies'],
      read: async () => (assemblyId ? ((await handle?.db.assemblies.get(assemblyId))?.title as string | undefined) : undefined),
    }),
    [assemblyId, handle],
  )
  const assemblyTitle = useSharedQuery(handle?.db, assemblyQuery)
  const [title, setTitle] = useState('')
  const [category, setCategory] = useState<DocumentCategory>(initialCategory ?? (assemblyId ? 'MINUTES' : 'OTHER'))
  const [audience, setAudience] = useState<DocumentAudience>('MEMBERS')
  const [file, setFile] = useState<File | null>(null)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  if (!companyId || !rights.manage)
    return (
      <div className="page">
        <Alert variant="error">
          <Trans>Only the association's board and administration can upload documents.</Trans>
        </Alert>
      </div>
    )

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const parsed = DocumentUploadFields.safeParse({ companyId, title, category, audience, ...(assemblyId ? { assemblyId } : {}) })
    const found: Partial<Record<Field, string>> = parsed.success ? {} : issuesByField<Field>(parsed.error.issues, i18n)
    if (!file) found.file = t`Please choose a file`
    else if (file.size > MAX_DOCUMENT_BYTES) found.file = t`The file is too large (at most 20 MB).`
    setErrors(found)
    if (!parsed.success || !file || Object.keys(found).length) return
    setBusy(true)
    try {
      const saved = await uploadDocument(parsed.data, file, action)
      showToast('success', t`The document was uploaded.`)
      // The list and the document page read the local copy: fetch the new row before going there.
      // The upload is done; a pull that fails here only delays the new row (the next pull brings it).
      await handle?.engine.syncNow().catch(() => undefined)
      void navigate({ to: '/documents/$id', params: { id: saved.id } })
    } catch (error) {
      if (error instanceof ApiError && error.issues.length)
        setErrors(
          issuesByField<Field>(
            error.issues.map((i) => ({ ...i, path: i.path.split('.') })),
            i18n,
          ),
        )
      setFailure(
        error instanceof ApiError && error.status === 0 ?
          t`The document could not be uploaded: there is no connection. Try again when you are online.`
        : errorMessage(error, t`The document could not be uploaded.`),
      )
    } finally {
      setBusy(false)
    }
  }

  const accept = Object.keys(attachmentTypes)
    .map((ext) => `.${ext}`)
    .join(',')

  return (
    <div className="page document-upload-page">
      <div className="page-header">
        <Link to="/documents" className={buttonClass('link')}>
          <Trans>← Back to documents</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Upload a document</Trans>
      </h1>
      {!online && (
        <Alert variant="info">
          <Trans>You are offline. Uploading a document needs a connection.</Trans>
        </Alert>
      )}
      {assemblyId && (
        <p className="muted">
          {assemblyTitle ?
            <Trans>For the general assembly: {assemblyTitle}</Trans>
          : <Trans>For a general assembly</Trans>}
        </p>
      )}
      {failure && <Alert variant="error">{failure}</Alert>}
      <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
        <TextField label={t`Title`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={200} required />
        <SelectField
          label={t`Category`}
          value={category}
          onChange={(e) => setCategory(e.target.value as DocumentCategory)}
          options={documentCategories.map((c) => ({ value: c, label: i18n._(categoryLabels[c]) }))}
          error={errors.category}
        />
        <SelectField
          label={t`Who may read it`}
          value={audience}
          onChange={(e) => setAudience(e.target.value as DocumentAudience)}
          options={documentAudiences.filter((a) => a !== 'STAFF' || rights.staffAudience).map((a) => ({ value: a, label: i18n._(audienceLabels[a]) }))}
          error={errors.audience}
        />
        <div className={`field${errors.file ? ' field-invalid' : ''}`}>
          <label htmlFor="document-file" className="field-label">
            <Trans>File</Trans>
          </label>
          <input
            id="document-file"
            type="file"
            className="input"
            accept={accept}
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={`document-file-hint${errors.file ? ' document-file-error' : ''}`}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <p id="document-file-hint" className="field-hint">
            <Trans>PDF, images, text, Word or Excel; at most {formatSize(MAX_DOCUMENT_BYTES, locale)}.</Trans>
          </p>
          {errors.file && (
            <p id="document-file-error" className="field-error">
              {errors.file}
            </p>
          )}
        </div>
        <div className="form-actions">
          <Button type="submit" busy={busy} disabled={busy || !online}>
            <Trans>Upload</Trans>
          </Button>
        </div>
      </form>
    </div>
  )
}
