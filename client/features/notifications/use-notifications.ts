/**
 * Notifications as the user sees them: the local copy with the user's queued changes applied
 * (optimistic view), live from IndexedDB, so the screen and the sidebar badge work offline.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import type { Notification } from '../../../shared/contract/notifications'
import type { Mutation, Row } from '../../sync/local-db'
import { applyOutbox, type ViewRow } from '../../sync/optimistic'
import { isProblem, type SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed, not only on the screen.
import './notification-mutations'

export type NotificationView = Notification & ViewRow

export interface NotificationsView {
  /** Newest first. */
  notifications: NotificationView[]
  unread: number
  /** Changes the server refused or that conflict, for the user to retry or discard. */
  problems: Mutation[]
}

export function notificationsView(rows: Row[], outbox: Mutation[]): NotificationsView {
  const notifications = (applyOutbox(rows, outbox, 'notification') as NotificationView[]).sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
  )
  return {
    notifications,
    unread: notifications.filter((n) => !n.isRead).length,
    problems: outbox.filter((m) => m.entity === 'notification' && isProblem(m)),
  }
}

/** undefined while IndexedDB opens (or nobody is signed in). */
export function useNotifications(handle: SyncHandle | null): NotificationsView | undefined {
  return useLiveQuery(async () => {
    if (!handle) return undefined
    const { db } = handle
    const [rows, outbox] = await Promise.all([db.notifications.toArray(), db.outbox.where('entity').equals('notification').toArray()])
    return notificationsView(rows, outbox)
  }, [handle])
}

/** The sidebar badge: unread in the optimistic view (0 while loading). */
export const useUnreadNotifications = (handle: SyncHandle | null): number => useNotifications(handle)?.unread ?? 0
