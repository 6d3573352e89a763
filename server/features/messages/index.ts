import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { messageAttachments, messageRecipients, messages } from '../../db/schema/messages'
import { attachmentStore } from '../../integrations/files/attachment-store'
import { RateLimiter } from '../../http/rate-limit'
import { createMessagesService, messageSync, type MessagesService } from './messages.service'
import { createContactService, type ContactService } from './contact.service'
import { messagesRoutes } from './messages.routes'

declare module '../../kernel/module' {
  interface Services {
    messages: MessagesService
    contact: ContactService
  }
}

/** Messages from the board to members, anonymous messages to the board, and the contact form (docs/decisions/0025). */
export const messagesModule = defineModule({
  name: 'messages',
  tables: [messages, messageRecipients, messageAttachments],
  services: {
    messages: (s, k) =>
      createMessagesService({
        db: k.db,
        clock: k.clock,
        lock: k.lock,
        publicUrl: k.config.publicUrl,
        companies: s.companies,
        notifications: s.notifications,
        files: attachmentStore(k.filesDir),
        scanner: k.scanner,
        // The association's storage quota, read when an upload asks (docs/decisions/0082).
        quota: { assertRoom: (companyId, bytes, replacing) => s.storage.assertRoom(companyId, bytes, replacing) },
        residency: s.residency,
      }),
    contact: (_s, k) => createContactService({ db: k.db, clock: k.clock, contactEmail: k.config.contactEmail }),
  },
  routes: (s, k) => [
    messagesRoutes(s.messages, s.contact, { anonymous: new RateLimiter(k.clock, 5, 3_600_000), contact: new RateLimiter(k.clock, 5, 3_600_000) }),
  ],
  scopes: (s) => ({ message: viewedScope((actor, id) => s.messages.view(actor, id)) }),
  sync: (s) => [messageSync(s.messages)],
  // Sends scheduled messages when their Copenhagen time comes, and marks recipients whose e-mail has left as received.
  jobs: (s) => [{ name: 'messages', everyMs: 2000, run: async () => await s.messages.tick() }],
  sweepFiles: (s) => s.messages.sweepFiles(),
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export { FILE_SWEEP_GRACE_MS } from './messages.service'
