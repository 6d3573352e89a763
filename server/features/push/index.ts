import { defineModule } from '../../kernel/module'
import { pushKeys, pushOutbox, pushPreferences, pushSubscriptions } from '../../db/schema/push'
import { PUSH_EMULATOR_PATH } from '../../integrations/push/push-emulator'
import { isUnder, createPushService, type PushFetch, type PushService } from './push.service'
import { pushRoutes } from './push.routes'

declare module '../../kernel/module' {
  interface Services {
    /** Push notifications to phones (docs/decisions/0088-push-notifications.md). */
    push: PushService
  }
}

/** How often the push job looks for pushes that are due (new ones, held ones whose quiet hours ended, retries). */
export const PUSH_JOB_MS = 5_000

/** Web Push with VAPID: devices, preferences, and the job that sends what notifications queued. */
export const pushModule = defineModule({
  name: 'push',
  tables: [pushKeys, pushSubscriptions, pushPreferences, pushOutbox],
  services: {
    push: (_s, k) => {
      const emulatorBase = k.config.isProduction ? undefined : `${k.config.publicUrl}${PUSH_EMULATOR_PATH}/`
      // The built-in emulator is called in-process (no network, also in tests); any other endpoint over the network.
      const send: PushFetch = (url, init) =>
        emulatorBase && isUnder(url, emulatorBase) ?
          Promise.resolve(k.fetch(new Request(url, init)))
          // A push service that redirects is not followed: the allowed host is the only one called.
        : fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(15_000) })
      return createPushService({
        db: k.db,
        clock: k.clock,
        lock: k.lock,
        secrets: k.secrets,
        log: k.log,
        vapid: k.config.vapid,
        vapidSubject: k.config.vapidSubject ?? `mailto:${k.config.contactEmail}`,
        emulatorBase,
        serviceHosts: k.config.pushServiceHosts,
        fetch: send,
      })
    },
  },
  routes: (s) => [pushRoutes(s.push)],
  jobs: (s) => [{ name: 'push-outbox', everyMs: PUSH_JOB_MS, locked: false, run: () => s.push.sendDue() }],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers").
export type { PushService } from './push.service'
