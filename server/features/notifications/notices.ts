import type { MessageDescriptor } from '@lingui/core'
import type { Db } from '../../db/client'
import type { Clock } from '../../lib/clock'
import { translate, type Locale } from '../../i18n/i18n'
import { renderEmail } from '../../integrations/mail/layout'
import { queueMail, queueMails } from '../../integrations/mail/mail-outbox'
import { localeOf, type Language } from '../../../shared/contract/common'
import { isErasedEmail } from '../../../shared/erased-person'
import type { UsersService } from '../users'
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

/** Someone told by `tellMany`: what the caller loaded about them in one statement. */
export interface Addressee {
  id: string
  fullName: string
  emailAddress: string
  language: Language
}

export type NoticesService = ReturnType<typeof createNoticesService>

/**
 * Telling a user about something that happened to their agreement or payment: in-app and by
 * e-mail, in the user's language, inside the caller's transaction (the agreements and billing
 * features call this).
 */
export function createNoticesService(deps: { db: Db; clock: Clock; publicUrl: string; users: UsersService; notifications: NotificationsService }) {
  const { db, clock, users, notifications } = deps

  /**
   * `tellMany`, answering the mail outbox row each person's e-mail is (null: an erased account's
   * address, never mailed), so a sendout can see later whom its mails did not reach (decision 0081).
   */
  async function tellManyMails(people: readonly Addressee[], n: Notice, details: (locale: Locale) => string[] = () => []): Promise<Map<string, string | null>> {
    if (!people.length) return new Map()
    await notifications.notifyMany(people, n)
    const texts = new Map<Locale, { subject: string; message: string; details: string[]; action: { label: string; url: string } }>()
    const textIn = (locale: Locale) => {
      let text = texts.get(locale)
      if (!text) {
        const values = valuesIn(locale, n.values)
        text = {
          subject: translate(locale, n.title, values),
          message: translate(locale, n.message, values),
          details: details(locale),
          action: { label: translate(locale, n.actionText), url: `${deps.publicUrl}${n.actionUrl}` },
        }
        texts.set(locale, text)
      }
      return text
    }
    const mails = people.map((person) => {
      const locale = localeOf(person.language)
      const text = textIn(locale)
      const mail = renderEmail(locale, {
        subject: text.subject,
        paragraphs: [translate(locale, /*i18n*/ { id: 'Hello {name},' }, { name: person.fullName }), text.message, ...text.details],
        action: text.action,
      })
      return { to: person.emailAddress, ...mail }
    })
    const mailed = people.flatMap((p, i) => (isErasedEmail(p.emailAddress) ? [] : [{ id: p.id, mail: mails[i]! }]))
    const ids = await queueMails(
      db,
      clock,
      mailed.map((m) => m.mail),
    )
    const byPerson = new Map<string, string | null>(people.map((p) => [p.id, null]))
    mailed.forEach((m, i) => byPerson.set(m.id, ids[i] ?? null))
    return byPerson
  }

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

    /**
     * `tell` for many people at once, set-based (the general assembly's sendouts to every member of
     * an association, decision 0061): the caller loads the people in one statement; their notifications are inserted
     * together, and each gets an e-mail in their own language, its text made once per language.
     * `details` adds paragraphs to the e-mail in a language (a date written that language's way,
     * a place, an agenda). Inside the caller's transaction. Answers how many were told.
     */
    async tellMany(people: readonly Addressee[], n: Notice, details: (locale: Locale) => string[] = () => []): Promise<number> {
      await tellManyMails(people, n, details)
      return people.length
    },

    tellManyMails,
  }
}
