import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { RecordBody } from '../../components/sync/RecordBody'
import { useQueuedText } from '../../components/sync/QueuedNotice'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, errorMessage, saveBlob } from '../../lib/api'
import { formatDate } from '../../lib/format'
import { sanitizeHtml } from '../../lib/safe-html'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { awaitServer } from '../../sync/await-server'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { formatSize } from '../documents/labels'
import { deleteArticle } from './article-mutations'
import { fetchAttachment } from './articles-api'
import { languageLabels, mayWrite } from './labels'
import { useArticle, type ArticleView } from './use-articles'
import { personName } from '../../../shared/erased-person'

/** One article (decision 0065): its sanitized body, tags and attachments; edit and delete for those who write it. */
export function ArticlePage({ id }: { id: string }) {
  const { t } = useLingui()
  const handle = useSync()
  const record = useArticle(handle, id)
  const row = record?.row as ArticleView | null | undefined
  usePageTitle(row?.title ?? t`Article`)
  return (
    <div className="page article-page">
      <div className="page-header">
        <Link to="/articles" className={buttonClass('link')}>
          <Trans>← Back to the articles</Trans>
        </Link>
      </div>
      <RecordBody<ArticleView> handle={handle} record={record} loading={t`Loading article`} notFound={<Trans>Article not found.</Trans>}>
        {(row, handle) => <ArticleBody handle={handle} row={row} />}
      </RecordBody>
    </div>
  )
}

function ArticleBody({ handle, row }: { handle: SyncHandle; row: ArticleView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const queuedText = useQueuedText()
  const user = useSession().user
  const writer = mayWrite(user, row.companyId)
  const remove = async () => {
    if (!window.confirm(t`Delete this article?`)) return
    const result = await awaitServer(handle, [await deleteArticle(handle, row as ArticleView & { _version: number })])
    if (result.outcome === 'accepted') showToast('success', t`The article was deleted.`)
    else if (result.outcome === 'queued') showToast('info', queuedText(result.waitingFor))
    else return
    void navigate({ to: '/articles' })
  }
  return (
    <article className="article" aria-labelledby="article-title">
      <h1 id="article-title" lang={row.language}>
        {row.title}
      </h1>
      <p className="article-meta muted">
        {row.companyId === null ?
          <Badge variant="info">
            <Trans>For every association</Trans>
          </Badge>
        : <Badge variant="neutral">
            <Trans>Your association</Trans>
          </Badge>
        }{' '}
        {row.language && i18n._(languageLabels[row.language])}
        {row.updatedAt && (
          <>
            {' · '}
            <Trans>
              By {personName(row.author?.fullName, i18n) ?? ''}, updated {formatDate(row.updatedAt, locale)}
            </Trans>
          </>
        )}
        {row._pending && <PendingMarker />}
      </p>
      <div className="message-body article-body" lang={row.language} dangerouslySetInnerHTML={{ __html: sanitizeHtml(row.body ?? '') }} />
      {(row.tags ?? []).length > 0 && (
        <ul className="chip-list article-tags" aria-label={t`Tags`}>
          {(row.tags ?? []).map((tag) => (
            <li key={tag} className="chip">
              <Link to="/articles" search={{ q: tag }} className="chip-text" lang={row.language}>
                #{tag}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Attachments row={row} />
      {writer && (
        <div className="form-actions article-actions">
          <Link to="/articles/edit/$id" params={{ id: row.id }} className={buttonClass('secondary')}>
            <Trans>Edit article</Trans>
          </Link>
          <Button variant="danger" onClick={() => void remove()}>
            <Trans>Delete article</Trans>
          </Button>
        </div>
      )}
    </article>
  )
}

/** The article's files: fetched from the server when opened (they are not kept on the device). */
function Attachments({ row }: { row: ArticleView }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { online } = useSyncStatus(useSync())
  const [error, setError] = useState<string | null>(null)
  const files = row.attachments ?? []
  if (files.length === 0) return null
  const open = async (file: { id: string; fileName: string }) => {
    setError(null)
    try {
      saveBlob(await fetchAttachment(row.id, file.id), file.fileName)
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 0 ?
          t`The file could not be fetched: there is no connection. Try again when you are online.`
        : errorMessage(err, t`The file could not be fetched.`),
      )
    }
  }
  return (
    <section className="article-attachments" aria-labelledby="article-attachments-title">
      <h2 id="article-attachments-title">
        <Trans>Attachments</Trans>
      </h2>
      <ul className="plain-list">
        {files.map((f) => (
          <li key={f.id}>
            <Button variant="link" onClick={() => void open(f)}>
              {f.fileName}
            </Button>{' '}
            <span className="muted">{formatSize(f.size, locale)}</span>
          </li>
        ))}
      </ul>
      {!online && (
        <p className="muted">
          <Trans>Attachments open when you are online.</Trans>
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
    </section>
  )
}
