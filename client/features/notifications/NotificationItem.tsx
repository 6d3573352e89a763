import { useMemo, type MouseEvent } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { formatDateTime } from '../../lib/format'
import { sanitizeHtml } from '../../lib/safe-html'
import { showToast } from '../../lib/toast'
import { useLocale } from '../../i18n/use-locale'
import type { Mutation } from '../../sync/local-db'
import { NotKeptError } from '../../sync/outcomes'
import type { SyncHandle } from '../../sync/use-sync'
import { useNotKeptText } from '../sync-status/refusal'
import { deleteNotification, markNotificationRead } from './notification-mutations'
import { notificationText, type NotificationView } from './use-notifications'

const typeNames = { success: msg`Success`, warning: msg`Warning`, error: msg`Error`, info: msg`Information` }

/** A link inside the app opens without reloading it; any other opens normally. */
const isInternal = (url: string) => url.startsWith('/') && !url.startsWith('//')

/** One notification: a type-coloured box with its title, message, action link and buttons. */
export function NotificationItem({ handle, notification: n, problem }: { handle: SyncHandle; notification: NotificationView; problem: Mutation | undefined }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const text = notificationText(n, locale)
  const message = useMemo(() => sanitizeHtml(text.message), [text.message])
  const titleId = `notification-${n.id}`
  const title = text.title

  const onAction = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!n.actionUrl || !isInternal(n.actionUrl) || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    void navigate({ href: n.actionUrl })
  }

  const notKeptText = useNotKeptText()
  /** A change this device could not store is not kept: said plainly, never as done. */
  const kept = async (change: () => Promise<unknown>): Promise<boolean> => {
    try {
      await change()
      return true
    } catch (error) {
      if (!(error instanceof NotKeptError)) throw error
      showToast('error', notKeptText(error))
      return false
    }
  }

  const onDelete = async () => {
    if (await kept(() => deleteNotification(handle, n.id))) showToast('success', t`Notification deleted`)
  }

  return (
    <li className={`notification alert alert-${n.type}${n.isRead ? '' : ' is-unread'}`} aria-labelledby={titleId} data-notification-id={n.id}>
      <div className="notification-head">
        <h2 id={titleId} className="notification-title">
          <span className="sr-only">{i18n._(typeNames[n.type])}: </span>
          {title}
        </h2>
        <div className="notification-badges">
          {!n.isRead && (
            <Badge variant="info">
              <Trans>Unread</Trans>
            </Badge>
          )}
          {n._pending && <PendingMarker />}
        </div>
      </div>
      <div className="notification-message" dangerouslySetInnerHTML={{ __html: message }} />
      <p className="notification-time">
        <time dateTime={n.createdAt}>{formatDateTime(n.createdAt, locale)}</time>
      </p>
      {problem && (
        <div className="notification-problem">
          <ChangeProblem handle={handle} mutation={problem} />
        </div>
      )}
      <div className="notification-actions">
        {n.actionUrl && (
          <a href={n.actionUrl} onClick={onAction} className="btn btn-sm btn-link notification-link">
            {text.actionText || t`View`}
          </a>
        )}
        <div className="notification-buttons">
          {!n.isRead && (
            <Button size="sm" variant="secondary" onClick={() => void kept(() => markNotificationRead(handle, n.id))}>
              <Trans>Mark as read</Trans>
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={() => void onDelete()} aria-label={t`Delete notification: ${title}`}>
            <Trans>Delete</Trans>
          </Button>
        </div>
      </div>
    </li>
  )
}
