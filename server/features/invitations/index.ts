import { defineModule } from '../../kernel/module'
import { invitationSends, invitationSettings, mailBounces } from '../../db/schema/invitations'
import { createInvitationsService, type InvitationsService } from './invitations.service'
import { invitationsRoutes } from './invitations.routes'

declare module '../../kernel/module' {
  interface Services {
    invitations: InvitationsService
  }
}

/**
 * Invitations at scale (docs/decisions/0091): everyone with an agreement who never signed in is
 * invited at once, reminded by the association's rules, and left alone once their address bounced.
 */
export const invitationsModule = defineModule({
  name: 'invitations',
  tables: [invitationSettings, invitationSends, mailBounces],
  services: {
    invitations: (s, k) =>
      createInvitationsService({ db: k.db, clock: k.clock, publicUrl: k.config.publicUrl, auth: s.auth, webhookSecret: k.config.mailWebhookSecret }),
  },
  routes: (s) => [invitationsRoutes(s.invitations)],
  // Sends queued invitations and reminders (a batch of 200 a transaction) and plans reminder rounds once a minute.
  jobs: (s) => [{ name: 'invitations', everyMs: 2000, run: async () => void (await s.invitations.tick()) }],
})

export type { InvitationsService } from './invitations.service'
