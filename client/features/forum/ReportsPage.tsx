import { useCallback, useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { ForumReport } from '../../../shared/contract/forum'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { formatDateTime } from '../../lib/format'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { useSession } from '../auth/session'
import { openReports, resolveReport } from './forum-api'
import { useModerates } from './moderation'
import './forum.css'
import { personName } from '../../../shared/erased-person'

/** The members' open reports of forum posts, for the board (decision 0066): read online, each marked handled once dealt with. */
export function ReportsPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Forum reports`)
  const locale = useLocale()
  const companyId = useSession().user?.currentCompany?.id
  const moderates = useModerates()
  const [reports, setReports] = useState<ForumReport[] | undefined>()
  /** The cursor of the next page (the `Link` header), undefined once every open report is shown. */
  const [next, setNext] = useState<string | undefined>()
  const [more, setMore] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [action] = useState(() => createActionKey())
  /** The first page (`after` undefined), or the page after `after` added below the ones shown. */
  const load = useCallback(
    async (after?: string) => {
      if (!companyId) return
      try {
        const page = await openReports(companyId, after)
        setReports((shown) => (after && shown ? [...shown, ...page.items.filter((r) => !shown.some((s) => s.id === r.id))] : page.items))
        setNext(page.next)
        setError(null)
      } catch (err) {
        setError(
          err instanceof ApiError && err.status === 0 ?
            t`The reports need a connection. Try again when you are online.`
          : errorMessage(err, t`The reports could not be loaded.`),
        )
      }
    },
    [companyId, t],
  )
  useEffect(() => void load(), [load])
  const loadMore = async () => {
    setMore(true)
    try {
      await load(next)
    } finally {
      setMore(false)
    }
  }
  const resolve = async (id: string) => {
    try {
      await resolveReport(id, action)
      showToast('success', t`The report is marked as handled.`)
      await load()
    } catch (err) {
      showToast('error', errorMessage(err, t`It could not be saved.`))
    }
  }
  return (
    <div className="page forum-reports-page">
      <div className="page-header">
        <Link to="/forum" className={buttonClass('link')}>
          <Trans>← Back to the forum</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Forum reports</Trans>
      </h1>
      {!moderates ?
        <Alert variant="info">
          <Trans>Only the board sees the members’ reports.</Trans>
        </Alert>
      : error ?
        <Alert variant="error">{error}</Alert>
      : !reports ?
        <Spinner label={t`Loading reports`} />
      : reports.length === 0 ?
        <p className="empty">
          <Trans>No open reports</Trans>
        </p>
      : <ul className="forum-posts">
          {reports.map((r) => (
            <li key={r.id} className="card forum-post">
              <div className="forum-post-head">
                <Link to="/forum/thread/$id" params={{ id: r.threadId }} className="forum-post-author">
                  {r.threadTitle}
                </Link>
                <span className="muted">{formatDateTime(r.createdAt, locale)}</span>
              </div>
              <p>
                <Trans>
                  {personName(r.reporterName, i18n)} reported a post by {personName(r.postAuthorName, i18n)}:
                </Trans>
              </p>
              {r.postExcerpt ?
                <blockquote className="forum-report-excerpt">{r.postExcerpt}</blockquote>
              : <p className="muted">
                  <Trans>The post was deleted.</Trans>
                </p>
              }
              <p className="forum-post-body">
                <strong>
                  <Trans>Reason:</Trans>
                </strong>{' '}
                {r.reason}
              </p>
              <div className="forum-post-actions">
                <Link to="/forum/thread/$id" params={{ id: r.threadId }} hash={`post-${r.postId}`} className={buttonClass('secondary', 'sm')}>
                  <Trans>Open the post</Trans>
                </Link>
                <Button variant="secondary" size="sm" onClick={() => void resolve(r.id)}>
                  <Trans>Mark as handled</Trans>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      }
      {moderates && !error && reports && next && (
        <div className="form-actions">
          <Button variant="secondary" busy={more} disabled={more} onClick={() => void loadMore()}>
            <Trans>Show more reports</Trans>
          </Button>
        </div>
      )}
    </div>
  )
}
