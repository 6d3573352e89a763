import type { MessageDescriptor } from '@lingui/core'
import type { Db } from '../../db/client'
import { notFound } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { escapeHtml, sanitizeHtml } from '../../lib/sanitize-html'
import { locales, translate, type Locale } from '../../i18n/i18n'
import { localeOf, type Language } from '../../../shared/contract/common'
import type { Notification, NotificationText } from '../../../shared/contract/notifications'
import type { NoticeValue, StoredMessage } from '../../db/schema/notifications'
import { formatKroner } from '../../../shared/domain/money'
import { ERASED_NAME } from '../../../shared/erased-person'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import type { UsersService } from '../users'
import { notificationsRepository as repo, type NotificationRow } from './notifications.repository'

export interface NotifyInput {
  type: Notification['type']
  title: MessageDescriptor
  /** HTML with ICU placeholders; values are escaped before they are put in. */
  message: MessageDescriptor
  /** Plain values; an amount as `{ ore }`, so each language writes it its own way. */
  values?: Record<string, NoticeValue>
  actionUrl?: string
  actionText?: MessageDescriptor
}

/** What a notification descriptor becomes in the `*_source` columns: id, English source, values. */
const stored = (m: MessageDescriptor, values?: Record<string, NoticeValue>): StoredMessage => ({
  id: m.id,
  ...(m.message ? { message: m.message } : {}),
  ...(values && Object.keys(values).length ? { values } : {}),
})

/** The values as text in a language: an amount in øre written as kroner the way that language writes them. */
const dayFormats: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  da: new Intl.DateTimeFormat('da-DK', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
}
/** A calendar day (`YYYY-MM-DD`) the reader's way: "2 December 2026", "2. december 2026". */
const formatDay = (day: string, locale: Locale): string => dayFormats[locale].format(new Date(`${day}T00:00:00Z`))

export const valuesIn = (locale: Locale, values: Record<string, NoticeValue> | undefined): Record<string, string | number> =>
  Object.fromEntries(
    Object.entries(values ?? {}).map(([k, v]) => [
      k,
      typeof v === 'object' ?
        'ore' in v ?
          formatKroner(v.ore, locale)
        : formatDay(v.day, locale)
      : v === ERASED_NAME ? translate(locale, messages.erasedMember)
      : v,
    ]),
  )

/** Values put into HTML are escaped first: a name or subject stays text. */
const escaped = (values: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v]))

/** A title or action label is text (shown as a text node), its values put in as they are. */
const plain = (locale: Locale, m: StoredMessage) => translate(locale, { id: m.id, message: m.message }, valuesIn(locale, m.values))
/** The message is HTML: values escaped, the result sanitized. */
const html = (locale: Locale, m: StoredMessage) => sanitizeHtml(translate(locale, { id: m.id, message: m.message }, escaped(valuesIn(locale, m.values))))

/** The notification's text in one language, from what it says; undefined for a row made before that was kept. */
function textIn(locale: Locale, row: NotificationRow): NotificationText | undefined {
  if (!row.titleSource || !row.messageSource) return undefined
  return {
    title: plain(locale, row.titleSource),
    message: html(locale, row.messageSource),
    actionText: row.actionTextSource ? plain(locale, row.actionTextSource) : null,
  }
}

/**
 * A notification as the API and the offline store show it: its text in every language the app
 * speaks (so a device switching language, also offline, shows it in the new one), and the fields
 * `title`, `message`, `actionText` in `locale` (the user's language now). A row made before its
 * content was kept reads as it was stored.
 */
export function notificationView(row: NotificationRow, locale: Locale): Notification {
  const localized =
    row.titleSource && row.messageSource ? (Object.fromEntries(locales.map((l) => [l, textIn(l, row)!])) as Record<Locale, NotificationText>) : null
  const own = localized?.[locale] ?? { title: row.title, message: row.message, actionText: row.actionText }
  return {
    id: row.id,
    title: own.title,
    message: own.message,
    type: row.type,
    isRead: row.isRead,
    actionUrl: row.actionUrl,
    actionText: own.actionText,
    localized,
    createdAt: row.createdAt,
    version: row.version,
  }
}

export interface NotificationsServiceDeps {
  db: Db
  clock: Clock
  users: UsersService
  /**
   * Queues a push to the people's devices that want this kind of notification (the push module,
   * docs/decisions/0088): inside the notification's transaction, sent by a job after the commit.
   */
  queuePush?: (people: ReadonlyArray<{ id: string; language: Language }>, notification: { titleId: string; actionUrl?: string | null }) => Promise<unknown>
}

/** In-app notifications (docs/PRODUCT.md §2 Notifications, §7); a synced entity scoped to its user. */
export class NotificationsService {
  constructor(private readonly deps: NotificationsServiceDeps) {}

  private async own(actor: Actor, id: string): Promise<NotificationRow> {
    const row = await repo.byIdOfUser(this.deps.db, actor.userId, id)
    if (!row) throw notFound()
    return row
  }

  private upserted(row: { id: string; userId: string }) {
    return recordChange(this.deps.db, this.deps.clock, 'notification', row.id, 'upsert', { userId: row.userId })
  }

  /**
   * Notifies a user in the user's language. Other features call this inside their transaction,
   * so the notification exists exactly when the change that caused it does.
   */
  async notify(userId: string, input: NotifyInput): Promise<string> {
    const user = await this.deps.users.byId(userId)
    if (!user) throw notFound()
    const locale = localeOf(user.language)
    const titleSource = stored(input.title, input.values)
    const messageSource = stored(input.message, input.values)
    const actionTextSource = input.actionText ? stored(input.actionText) : null
    const id = newId()
    await repo.insert(this.deps.db, {
      id,
      userId,
      type: input.type,
      title: plain(locale, titleSource),
      message: html(locale, messageSource),
      actionUrl: input.actionUrl ?? null,
      actionText: actionTextSource ? plain(locale, actionTextSource) : null,
      titleSource,
      messageSource,
      actionTextSource,
      createdAt: this.deps.clock.now().toISOString(),
    })
    await this.upserted({ id, userId })
    await this.deps.queuePush?.([{ id: userId, language: user.language }], { titleId: input.title.id, actionUrl: input.actionUrl })
    return id
  }

  /**
   * The same notification for many users at once (the general assembly's sendouts, decision 0061): the people are given by
   * the caller (loaded in one statement), the text is made once per language, and the rows are
   * inserted together. Inside the caller's transaction, like `notify`.
   */
  async notifyMany(people: ReadonlyArray<{ id: string; language: Language }>, input: NotifyInput): Promise<void> {
    const titleSource = stored(input.title, input.values)
    const messageSource = stored(input.message, input.values)
    const actionTextSource = input.actionText ? stored(input.actionText) : null
    const textIn = new Map(
      locales.map((locale) => [
        locale,
        { title: plain(locale, titleSource), message: html(locale, messageSource), actionText: actionTextSource ? plain(locale, actionTextSource) : null },
      ]),
    )
    const at = this.deps.clock.now().toISOString()
    const rows = people.map((p) => {
      const text = textIn.get(localeOf(p.language))!
      return {
        id: newId(),
        userId: p.id,
        type: input.type,
        ...text,
        actionUrl: input.actionUrl ?? null,
        titleSource,
        messageSource,
        actionTextSource,
        createdAt: at,
      }
    })
    await repo.insertMany(this.deps.db, rows)
    for (const row of rows) await this.upserted(row)
    await this.deps.queuePush?.(people, { titleId: input.title.id, actionUrl: input.actionUrl })
  }

  async list(actor: Actor): Promise<Notification[]> {
    return (await repo.ofUser(this.deps.db, actor.userId)).map((row) => notificationView(row, localeOf(actor.language)))
  }

  async unreadCount(actor: Actor): Promise<number> {
    return await repo.unreadCount(this.deps.db, actor.userId)
  }

  /**
   * Marking read twice is harmless: the second time changes nothing. The usual case (one's own,
   * unread) is one statement, with no read before it (the hot write of the API bench, docs/BENCHMARKS.md).
   */
  async markRead(actor: Actor, id: string): Promise<Notification> {
    const marked = await repo.markOwnUnread(this.deps.db, actor.userId, id, this.deps.clock.now().toISOString())
    if (marked) await this.upserted(marked)
    return notificationView(marked ?? (await this.own(actor, id)), localeOf(actor.language))
  }

  async readAll(actor: Actor): Promise<number> {
    const unread = await repo.unreadOfUser(this.deps.db, actor.userId)
    const at = this.deps.clock.now().toISOString()
    for (const row of unread) {
      await repo.markRead(this.deps.db, row.id, at)
      await this.upserted(row)
    }
    return unread.length
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.own(actor, id)
    await repo.delete(this.deps.db, id)
    await recordChange(this.deps.db, this.deps.clock, 'notification', id, 'delete', { userId: actor.userId })
  }
}

export const createNotificationsService = (deps: NotificationsServiceDeps) => new NotificationsService(deps)

const synced = (actor: Actor) => (row: NotificationRow) => ({
  id: row.id,
  version: row.version,
  data: notificationView(row, localeOf(actor.language)) as unknown as Record<string, unknown>,
})

/** Notifications in the offline store: each user gets only their own. */
export const notificationSync: SyncedEntity = {
  name: 'notification',
  snapshot: async (db, actor, afterId, limit) => (await repo.pageOfUser(db, actor.userId, afterId, limit)).map(synced(actor)),
  load: async (db, actor, ids) => (await repo.byIdsOfUser(db, actor.userId, ids)).map(synced(actor)),
}
