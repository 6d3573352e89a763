/**
 * Notifications as the user sees them: the local copy with the user's queued changes applied
 * (optimistic view), live from IndexedDB, so the screen and the sidebar badge work offline.
 */
import type { Notification, NotificationText } from '../../../shared/contract/notifications'
import type { Locale } from '../../i18n/i18n'
import type { LocalDb, Mutation, Row } from '../../sync/local-db'
import { applyOutbox, type ViewRow } from '../../sync/optimistic'
import { pendingOf } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { isProblem, type SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed, not only on the screen.

export type NotificationView = Notification & ViewRow

/**
 * What a notification says in the interface language: the server sends its text in every
 * language (so switching language, also offline, changes it at once); one made before that
 * reads as it was stored, in the language its user had then.
 */
export function notificationText(n: Notification, locale: Locale): NotificationText {
  return n.localized?.[locale] ?? { title: n.title, message: n.message, actionText: n.actionText }
}

export interface NotificationsView {
  /** Newest first. */
  notifications: NotificationView[]
  unread: number
  /** Changes the server refused or that conflict, for the user to retry or discard. */
  problems: Mutation[]
}

/** `rows` newest first (the order is kept: the queued changes to notifications add none). */
export function notificationsView(rows: Row[], outbox: Mutation[]): NotificationsView {
  const notifications = applyOutbox(rows, outbox, 'notification') as NotificationView[]
  return {
    notifications,
    unread: notifications.filter((n) => !n.isRead).length,
    problems: outbox.filter((m) => m.entity === 'notification' && isProblem(m)),
  }
}

const notificationsQuery: SharedQuery<NotificationsView> = {
  key: 'notifications',
  tables: ['notifications', 'outbox'],
  read: async (db: LocalDb) => notificationsView(await db.notifications.orderBy('createdAt').reverse().toArray(), await pendingOf(db, 'notification')),
}

/** undefined while IndexedDB opens (or nobody is signed in). Shared by the screen and the badge. */
export const useNotifications = (handle: SyncHandle | null): NotificationsView | undefined => useSharedQuery(handle?.db, notificationsQuery)

/** The sidebar badge: unread in the optimistic view (0 while loading). */
export const useUnreadNotifications = (handle: SyncHandle | null): number => useNotifications(handle)?.unread ?? 0
