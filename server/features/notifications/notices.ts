import type { MessageDescriptor } from '@lingui/core'
import type { Db } from '../../db/client'
import type { Clock } from '../../lib/clock'
import { translate } from '../../i18n/i18n'
import { renderEmail } from '../../integrations/mail/layout'
import { queueMail } from '../../integrations/mail/mail-outbox'
import { localeOf } from '../../../shared/contract/common'
import type { UsersService } from '../users/users.service'
import { valuesIn, type NotificationsService } from './notifications.service'
import type { NoticeValue } from '../../db/schema/notifications'

export interface Notice {
  type: 'info' | 'success' | 'warning' | 'error'
  title: MessageDescriptor
  message: MessageDescriptor
  /** Plain values; an amount as `{ ore }` (written as kroner in the user's language). */
  values: Record<string, NoticeValue>
  actionUrl: string
  actionText: MessageDescriptor
}

export type NoticesService = ReturnType<typeof createNoticesService>

/**
 * Telling a user about something that happened to their agreement or payment: in-app and by
 * e-mail, in the user's language, inside the caller's transaction (the agreements and billing
 * features call this).
 */
export function createNoticesService(deps: { db: Db; clock: Clock; publicUrl: string; users: UsersService; notifications: NotificationsService }) {
  const { db, clock, users, notifications } = deps
  return {
    async tell(userId: string, n: Notice): Promise<void> {
      const user = await users.byId(userId)
      if (!user) return
      await notifications.notify(userId, n)
      const locale = localeOf(user.language)
      const values = valuesIn(locale, n.values)
      const mail = renderEmail(locale, {
        subject: translate(locale, n.title, values),
        paragraphs: [translate(locale, /*i18n*/ { id: 'Hello {name},' }, { name: user.fullName }), translate(locale, n.message, values)],
        action: { label: translate(locale, n.actionText), url: `${deps.publicUrl}${n.actionUrl}` },
      })
      await queueMail(db, clock, { to: user.emailAddress, ...mail })
    },
  }
}
