import { defineModule } from '../../kernel/module'
import { createLiveService, type LiveService } from './live.service'
import { liveRoutes } from './live.routes'
import type { LiveLimits } from './live-hub'

declare module '../../kernel/module' {
  interface Services {
    live: LiveService
  }
}

declare module '../../kernel/kernel' {
  interface AppDeps {
    /** Bounds and heartbeat of the live streams (tests make the heartbeat short). */
    live?: Partial<LiveLimits>
  }
}

/** GET /api/live: server-sent events telling clients to pull now (decision 0086, docs/OFFLINE.md "When it syncs"). */
export const liveModule = defineModule({
  name: 'live',
  tables: [],
  services: {
    live: (s, k) =>
      createLiveService({
        database: k.database,
        lock: k.lock,
        log: k.log,
        residency: s.residency,
        authenticate: (token) => s.auth.authenticate(token),
        limits: k.options.live,
      }),
  },
  routes: (s) => [liveRoutes(s.live)],
})

export type { LiveService } from './live.service'
export { LIVE_LIMITS, mayConcern, type LiveLimits, type Viewer } from './live-hub'
