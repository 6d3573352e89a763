import type { MessageDescriptor } from '@lingui/core'
import type { Db } from '../../db/client'
import { notFound } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { escapeHtml, sanitizeHtml } from '../../lib/sanitize-html'
import { translate } from '../../i18n/i18n'
import { localeOf } from '../../../shared/contract/common'
import type { Notification } from '../../../shared/contract/notifications'
import type { Actor } from '../access/actor'
import { recordChange } from '../sync/change-log'
import type { SyncedEntity } from '../sync/synced-entity'
import type { UsersService } from '../users/users.service'
import { notificationsRepository as repo, type NotificationRow } from './notifications.repository'

export interface NotifyInput {
  type: Notification['type']
  title: MessageDescriptor
  /** HTML with ICU placeholders; values are escaped before they are put in. */
  message: MessageDescriptor
  values?: Record<string, string | number>
  actionUrl?: string
  actionText?: MessageDescriptor
}

export const notificationView = (row: NotificationRow): Notification => ({
  id: row.id,
  title: row.title,
  message: row.message,
  type: row.type,
  isRead: row.isRead,
  actionUrl: row.actionUrl,
  actionText: row.actionText,
  createdAt: row.createdAt,
  version: row.version,
})

export type NotificationsService = ReturnType<typeof createNotificationsService>

/** In-app notifications (spec §2 Notifications, §7); a synced entity scoped to its user. */
export function createNotificationsService(deps: { db: Db; clock: Clock; users: UsersService }) {
  const { db, clock, users } = deps

  function own(actor: Actor, id: string): NotificationRow {
    const row = repo.byIdOfUser(db, actor.userId, id)
    if (!row) throw notFound()
    return row
  }

  const upserted = (row: { id: string; userId: string }) => recordChange(db, clock, 'notification', row.id, 'upsert', { userId: row.userId })

  return {
    /**
     * Notifies a user in the user's language. Other features call this inside their transaction,
     * so the notification exists exactly when the change that caused it does.
     */
    notify(userId: string, input: NotifyInput): string {
      const user = users.byId(userId)
      if (!user) throw notFound()
      const locale = localeOf(user.language)
      const safeValues = Object.fromEntries(Object.entries(input.values ?? {}).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v]))
      const id = newId()
      repo.insert(db, {
        id,
        userId,
        type: input.type,
        title: translate(locale, input.title, input.values),
        message: sanitizeHtml(translate(locale, input.message, safeValues)),
        actionUrl: input.actionUrl ?? null,
        actionText: input.actionText ? translate(locale, input.actionText) : null,
        createdAt: clock.now().toISOString(),
      })
      upserted({ id, userId })
      return id
    },

    list: (actor: Actor): Notification[] => repo.ofUser(db, actor.userId).map(notificationView),

    unreadCount: (actor: Actor): number => repo.unreadCount(db, actor.userId),

    /** Marking read twice is harmless: the second time changes nothing. */
    markRead(actor: Actor, id: string): Notification {
      const row = own(actor, id)
      if (!row.isRead) {
        repo.markRead(db, id, clock.now().toISOString())
        upserted(row)
      }
      return notificationView(own(actor, id))
    },

    readAll(actor: Actor): number {
      const unread = repo.unreadOfUser(db, actor.userId)
      const at = clock.now().toISOString()
      for (const row of unread) {
        repo.markRead(db, row.id, at)
        upserted(row)
      }
      return unread.length
    },

    delete(actor: Actor, id: string): void {
      own(actor, id)
      repo.delete(db, id)
      recordChange(db, clock, 'notification', id, 'delete', { userId: actor.userId })
    },
  }
}

const synced = (row: NotificationRow) => ({ id: row.id, version: row.version, data: notificationView(row) as unknown as Record<string, unknown> })

/** Notifications in the offline store: each user gets only their own. */
export const notificationSync: SyncedEntity = {
  name: 'notification',
  snapshot: (db, actor, afterId, limit) => repo.pageOfUser(db, actor.userId, afterId, limit).map(synced),
  load: (db, actor, ids) => repo.byIdsOfUser(db, actor.userId, ids).map(synced),
}
