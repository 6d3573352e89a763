import { defineModule } from '../../kernel/module'
import { changeLog, syncState } from '../../db/schema/sync'
import { createSyncService, type SyncService } from './sync.service'
import { syncRoutes } from './sync.routes'
import { batchRoutes } from './batch.routes'

declare module '../../kernel/module' {
  interface Services {
    sync: SyncService
  }
}

/** GET /api/sync over every module's synced entities, and the batch of queued writes (docs/OFFLINE.md). */
export const syncModule = defineModule({
  name: 'sync',
  tables: [changeLog, syncState],
  services: { sync: (s, k) => createSyncService({ db: k.db, residency: s.residency, entities: k.syncEntities(s) }) },
  routes: (s, k) => [syncRoutes(s.sync), batchRoutes((request, env) => k.fetch(request, env), k.routeRules)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export { recordChange, writeChange, recordChangesFor, recordChangesOf, watchChangeLog, audiencesSince, latestSeq, CHANGE_LOG_CHANNEL } from './change-log'
export type { ChangeAudience } from './change-log'
export type { SyncedEntity, SyncedRow } from './synced-entity'
