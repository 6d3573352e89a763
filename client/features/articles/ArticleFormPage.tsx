import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateArticleRequest, UpdateArticleRequest, articleLanguages, type ArticleLanguage } from '../../../shared/contract/articles'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { SelectField, TextAreaField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { issuesByField } from '../../lib/form-issues'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { formatSize } from '../documents/labels'
import { createArticle, updateArticle } from './article-mutations'
import { addAttachment, removeAttachment } from './articles-api'
import { languageLabels, mayWrite } from './labels'
import { useArticle, type ArticleView } from './use-articles'

type Field = 'title' | 'body' | 'tags' | 'language'

/** Tags as typed: words separated by commas. */
const splitTags = (text: string) => text.split(',').filter((t) => t.trim())

/** A new article (decision 0065): the association's (its staff) or, for the super admin, one for every association. */
export function NewArticlePage() {
  const { t } = useLingui()
  usePageTitle(t`New article`)
  const user = useSession().user
  const superAdmin = user?.userRole === 'SUPERADMIN'
  const companyId = superAdmin ? null : (user?.currentCompany?.id ?? undefined)
  return (
    <div className="page article-form-page">
      <div className="page-header">
        <Link to="/articles" className={buttonClass('link')}>
          <Trans>← Back to the articles</Trans>
        </Link>
      </div>
      <h1>
        <Trans>New article</Trans>
      </h1>
      {companyId === undefined ?
        <Alert variant="info">
          <Trans>Only the association’s staff can write its articles.</Trans>
        </Alert>
      : <ArticleForm companyId={companyId} />}
    </div>
  )
}

/** Edit an article (its writers): text through the outbox (works offline), attachments online. */
export function EditArticlePage({ id }: { id: string }) {
  const { t } = useLingui()
  usePageTitle(t`Edit article`)
  const handle = useSync()
  const record = useArticle(handle, id)
  const row = record?.row as ArticleView | null | undefined
  const user = useSession().user
  return (
    <div className="page article-form-page">
      <div className="page-header">
        <Link to="/articles/$id" params={{ id }} className={buttonClass('link')}>
          <Trans>← Back to the article</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Edit article</Trans>
      </h1>
      {!handle || record === undefined || (!row && record.absent === 'loading') ?
        <Spinner label={t`Loading article`} />
      : !row ?
        <RecordMissing absent={record.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Article not found.</Trans>} />
      : !mayWrite(user, row.companyId) ?
        <Alert variant="info">
          <Trans>Only the association’s staff can write its articles.</Trans>
        </Alert>
      : <>
          <ArticleForm companyId={row.companyId ?? null} existing={row} />
          <AttachmentsEditor handle={handle} row={row} />
        </>
      }
    </div>
  )
}

function ArticleForm({ companyId, existing }: { companyId: string | null; existing?: ArticleView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const handle = useSync()
  const queuedText = useQueuedText()
  const user = useSession().user
  const [title, setTitle] = useState(existing?.title ?? '')
  const [language, setLanguage] = useState<ArticleLanguage>(existing?.language ?? locale)
  const [tags, setTags] = useState((existing?.tags ?? []).join(', '))
  const [body, setBody] = useState(existing?.body ?? '')
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({})
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!handle || !user) return
    const fields = { language, title, body, tags: splitTags(tags) }
    setBusy(true)
    try {
      if (!existing) {
        const parsed = CreateArticleRequest.safeParse({ id: crypto.randomUUID(), companyId, ...fields })
        if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
        setErrors({})
        const id = parsed.data.id!
        const result = await awaitServer(handle, [await createArticle(handle, { ...parsed.data, id }, { id: user.id, fullName: user.fullName })])
        if (result.outcome === 'accepted') showToast('success', t`The article was published.`)
        else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
        else return
        void navigate({ to: '/articles/$id', params: { id } })
        return
      }
      const parsed = UpdateArticleRequest.safeParse(fields)
      if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
      setErrors({})
      const queued = updateArticle(handle, existing as ArticleView & { _version: number }, parsed.data)
      if (!queued) return showToast('info', t`Nothing was changed.`)
      const result = await awaitServer(handle, [await queued])
      if (result.outcome === 'accepted') showToast('success', t`The article was saved.`)
      else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
      else return
      void navigate({ to: '/articles/$id', params: { id: existing.id } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
      {companyId === null && (
        <Alert variant="info">
          <Trans>This article is for every association on the platform: all their members can read it.</Trans>
        </Alert>
      )}
      <TextField label={t`Title`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} maxLength={160} required />
      <SelectField
        label={t`Language of the article`}
        value={language}
        onChange={(e) => setLanguage(e.target.value as ArticleLanguage)}
        options={articleLanguages.map((l) => ({ value: l, label: i18n._(languageLabels[l]) }))}
        error={errors.language}
      />
      <TextAreaField
        label={t`Text`}
        rows={12}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        error={errors.body}
        hint={t`Line breaks are kept; simple formatting such as <b>bold</b> is allowed.`}
      />
      <TextField
        label={t`Tags`}
        value={tags}
        onChange={(e) => setTags(e.target.value)}
        error={errors.tags}
        hint={t`A few words separated by commas, e.g. laundry, waste`}
      />
      <div className="form-actions">
        <Button type="submit" busy={busy} disabled={busy}>
          {existing ?
            <Trans>Save article</Trans>
          : <Trans>Publish article</Trans>}
        </Button>
      </div>
    </form>
  )
}

/** Attachments (online): at most 10 files of 20 MB, checked and scanned by the server. */
function AttachmentsEditor({ handle, row }: { handle: SyncHandle; row: ArticleView }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { online } = useSyncStatus(handle)
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [action, setAction] = useState(() => createActionKey())
  /** A new key empties the file field after an upload. */
  const [inputKey, setInputKey] = useState(0)
  const failed = (err: unknown) =>
    setError(
      err instanceof ApiError && err.status === 0 ?
        t`The attachment could not be saved: there is no connection. Try again when you are online.`
      : errorMessage(err, t`The attachment could not be saved.`),
    )
  const upload = async () => {
    if (!file) return setError(t`Please choose a file`)
    setBusy(true)
    setError(null)
    try {
      await addAttachment(row.id, file, action)
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', t`The attachment was added.`)
      setFile(null)
      setInputKey((k) => k + 1)
      setAction(createActionKey())
    } catch (err) {
      failed(err)
    } finally {
      setBusy(false)
    }
  }
  const remove = async (attachmentId: string) => {
    if (!window.confirm(t`Remove this attachment?`)) return
    try {
      await removeAttachment(row.id, attachmentId, createActionKey())
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', t`The attachment was removed.`)
    } catch (err) {
      failed(err)
    }
  }
  return (
    <section className="card article-attachments-editor" aria-labelledby="article-attachments-edit-title">
      <h2 id="article-attachments-edit-title">
        <Trans>Attachments</Trans>
      </h2>
      {(row.attachments ?? []).length > 0 && (
        <ul className="plain-list">
          {(row.attachments ?? []).map((a) => (
            <li key={a.id} className="article-attachment-row">
              <span>
                {a.fileName} <span className="muted">{formatSize(a.size, locale)}</span>
              </span>
              <Button variant="secondary" size="sm" disabled={!online} onClick={() => void remove(a.id)} aria-label={t`Remove ${a.fileName}`}>
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor="article-attachment" className="field-label">
          <Trans>Add a file</Trans>
        </label>
        <input
          key={inputKey}
          id="article-attachment"
          type="file"
          className="input"
          disabled={!online || !!row._pending}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <p className="field-hint muted">
          {online ?
            <Trans>PDF, image, text or Office file, at most 20 MB; at most 10 files.</Trans>
          : <Trans>Attachments can be added when you are online.</Trans>}
        </p>
        {error && <p className="field-error">{error}</p>}
      </div>
      <div className="form-actions">
        <Button variant="secondary" busy={busy} disabled={busy || !online || !!row._pending} onClick={() => void upload()}>
          <Trans>Add attachment</Trans>
        </Button>
      </div>
    </section>
  )
}
