import type { Db } from '../../db/client'
import type { Clock } from '../../lib/clock'
import { queueMail } from '../../integrations/mail/mail-outbox'
import type { ContactRequest } from '../../../shared/contract/messages'
import type { Actor } from '../../access/actor'

export type ContactService = ReturnType<typeof createContactService>

/**
 * The contact form (docs/PRODUCT.md §2 Contact): each message is e-mailed to the platform's contact address
 * (CONTACT_EMAIL) through the mail outbox, so it is sent after the request commits and retried.
 * The platform answers in English and Danish alike, so the mail is written to the team, not translated.
 */
export function createContactService(deps: { db: Db; clock: Clock; contactEmail: string }) {
  return {
    async send(actor: Actor | null, input: ContactRequest): Promise<void> {
      const from =
        actor ? `${actor.fullName} <${actor.emailAddress}>`
        : input.email ? input.email
        : 'a guest (no reply address)'
      const text = [`Contact form message from ${from}`, actor ? `User id: ${actor.userId}` : '', '', input.message.trim()]
        .filter((l, i) => l !== '' || i === 2)
        .join('\n')
      await queueMail(deps.db, deps.clock, { to: deps.contactEmail, subject: `Boligkasse contact form: ${from}`, text })
    },
  }
}
