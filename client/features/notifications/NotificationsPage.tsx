import { useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { showToast } from '../../lib/toast'
import { usePageTitle } from '../../lib/use-page-title'
import { NotKeptError } from '../../sync/outcomes'
import { useSync } from '../../sync/use-sync'
import { useNotKeptText } from '../sync-status/refusal'
import { markAllNotificationsRead } from './notification-mutations'
import { NotificationItem } from './NotificationItem'
import { useNotifications } from './use-notifications'

/** Rows rendered at first and per "Show more": a long history must not slow the first paint. */
const PAGE_SIZE = 100

/**
 * The user's notifications (docs/PRODUCT.md §2 "Notifications"), read from the local copy so they show
 * offline; marking read and deleting are queued and shown at once. (The earlier product's fallback to sample
 * data when the list fails to load is replaced by the local copy.)
 */
export function NotificationsPage() {
  const { t } = useLingui()
  const sync = useSync()
  const view = useNotifications(sync)
  const notKeptText = useNotKeptText()
  const [shown, setShown] = useState(PAGE_SIZE)
  usePageTitle(t`Notifications`)

  if (!sync || !view) return <Spinner label={t`Loading notifications`} />
  const { notifications, unread, problems } = view
  const shownIds = new Set(notifications.map((n) => n.id))
  // Refused changes whose notification is no longer in the list (deleted on the server) or that
  // concern them all: shown above the list, since they have no row of their own.
  const detached = problems.filter((m) => !m.entityId || !shownIds.has(m.entityId))

  const onMarkAll = async () => {
    try {
      await markAllNotificationsRead(sync)
    } catch (error) {
      // Not stored on this device: not kept, and said so.
      if (error instanceof NotKeptError) return showToast('error', notKeptText(error))
      throw error
    }
    showToast('success', t`All notifications marked as read`)
  }

  return (
    <div className="page">
      <div className="section-header">
        <div>
          <h1>
            <Trans>Notifications</Trans>
          </h1>
          <p className="muted notifications-count">
            <Plural value={unread} one="There is # unread notification" other="There are # unread notifications" />
          </p>
        </div>
        {unread > 0 && (
          <Button variant="secondary" onClick={() => void onMarkAll()}>
            <Trans>Mark all as read</Trans>
          </Button>
        )}
      </div>

      {detached.length > 0 && (
        <section className="card change-problems" aria-labelledby="notification-problems">
          <h2 id="notification-problems" className="change-problems-title">
            <Trans>Changes that were not saved</Trans>
          </h2>
          <ul className="plain-list">
            {detached.map((m) => (
              <li key={m.mutationId}>
                <ChangeProblem handle={sync} mutation={m} />
              </li>
            ))}
          </ul>
        </section>
      )}

      {notifications.length === 0 ?
        <div className="card empty-state">
          <p className="empty-state-title">
            <Trans>Hurray - You are all caught up</Trans>
          </p>
        </div>
      : <ul className="notification-list" aria-label={t`Notifications`}>
          {notifications.slice(0, shown).map((n) => (
            <NotificationItem key={n.id} handle={sync} notification={n} problem={problems.find((m) => m.entityId === n.id)} />
          ))}
        </ul>
      }
      {notifications.length > shown && (
        <div className="load-more">
          <Button variant="secondary" onClick={() => setShown(shown + PAGE_SIZE)}>
            <Trans>Show more</Trans>
          </Button>
        </div>
      )}
    </div>
  )
}
