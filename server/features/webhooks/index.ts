import { defineModule } from '../../kernel/module'
import { providerWebhooks, webhookEvents } from '../../db/schema/payments'
import { createWebhooksService, type WebhooksService } from './webhooks.service'
import { webhooksRoutes } from './webhooks.routes'

declare module '../../kernel/module' {
  interface Services {
    webhooks: WebhooksService
  }
}

/** Vipps webhooks: registered per provider, received signed, processed by a job. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  tables: [providerWebhooks, webhookEvents],
  services: {
    // A processed webhook hands Vipps' current state to the observer, in the webhook job's transaction.
    webhooks: (s, k) =>
      createWebhooksService({
        db: k.db,
        clock: k.clock,
        lock: k.lock,
        secrets: k.secrets,
        providers: s.providers,
        log: k.log,
        observe: (observation) => s.vippsObserver.observe(observation),
      }),
  },
  routes: (s) => [webhooksRoutes(s.webhooks)],
  scopes: (s) => ({ webhookProvider: (actor, id) => s.webhooks.scopeOf(actor, id) }),
  jobs: (s) => [{ name: 'vipps-webhooks', everyMs: 2000, run: () => s.webhooks.processDue(), locked: false }],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { VippsObservation } from './webhooks.service'
