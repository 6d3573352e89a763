import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { Alert } from '../../components/ui/Alert'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { formatDateTime } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { ThreadBadges } from './ForumMarks'
import { useModerates } from './moderation'
import { useMemberCompany } from '../market/use-listings'
import { useThreads, type ThreadView } from './use-forum'
import './forum.css'
import { personName } from '../../../shared/erased-person'

/**
 * The association's forum (decision 0066): its threads from the local copy, so the list shows
 * offline — pinned first, then the latest activity first, with their replies counted. Moderators
 * also see hidden threads (marked) and a link to the members' reports.
 */
export function ForumPage() {
  const { t } = useLingui()
  usePageTitle(t`Forum`)
  const handle = useSync()
  const threads = useThreads(handle)
  const moderates = useModerates()
  const memberOf = useMemberCompany(handle, useSession().user)
  return (
    <div className="page forum-page">
      <div className="page-header">
        <h1>
          <Trans>Forum</Trans>
        </h1>
        <div className="forum-actions">
          {moderates && (
            <Link to="/forum/reports" className={buttonClass('secondary')}>
              <Trans>Reports</Trans>
            </Link>
          )}
          {memberOf !== null && (
            <Link to="/forum/new" className={buttonClass('primary')}>
              <span aria-hidden="true">+ </span>
              <Trans>New thread</Trans>
            </Link>
          )}
        </div>
      </div>
      <p className="muted">
        <Trans>Questions, ideas and news between neighbours. The board moderates the forum.</Trans>
      </p>
      {memberOf === null ?
        <Alert variant="info">
          <Trans>
            The forum is for the members of an association: residents with an agreement and its staff. Once you are one, you can read and write here.
          </Trans>
        </Alert>
      : !threads ?
        <Spinner label={t`Loading threads`} />
      : threads.length === 0 ?
        <p className="empty">
          <Trans>No threads yet</Trans>
        </p>
      : <ul className="forum-threads card" aria-label={t`Threads`}>
          {threads.map((thread) => (
            <ThreadItem key={thread.id} thread={thread} />
          ))}
        </ul>
      }
    </div>
  )
}

function ThreadItem({ thread }: { thread: ThreadView }) {
  const locale = useLocale()
  const { i18n } = useLingui()
  const userId = useSession().user?.id
  return (
    <li className="forum-thread-item">
      <div className="forum-thread-main">
        <h2 className="forum-thread-title">
          <Link to="/forum/thread/$id" params={{ id: thread.id }}>
            {thread.title}
          </Link>
        </h2>
        <p className="muted forum-thread-meta">
          {thread.author?.id === userId ?
            <Trans>Started by you</Trans>
          : <Trans>Started by {personName(thread.author?.fullName, i18n) ?? ''}</Trans>}
          {' · '}
          {thread.lastActivityAt && <Trans>Last activity {formatDateTime(thread.lastActivityAt, locale)}</Trans>}
        </p>
      </div>
      <ThreadBadges thread={thread} withUnread />
    </li>
  )
}
