import type { Logger } from 'pino'
import type { Database_ } from '../../db/client'
import { inReadScope } from '../../db/read-scope'
import type { WriteLock } from '../../lib/write-lock'
import type { Actor } from '../../access/actor'
import { isSuperAdmin } from '../../access/policy'
import type { Residency } from '../agreements'
import { changeFeed } from './change-feed'
import { createLiveHub, type LiveLimits, type Viewer } from './live-hub'

export type LiveService = ReturnType<typeof createLiveService>

/**
 * The live streams (decision 0086): the hub and the feed that wakes it, and who a stream's user
 * may see (`Viewer`), read when it opens and again at each heartbeat with the session's token.
 */
export function createLiveService(deps: {
  database: Database_
  lock: WriteLock
  log: Logger
  residency: Pick<Residency, 'residentCompanyIds'>
  authenticate: (token: string) => Promise<Actor | undefined>
  limits?: Partial<LiveLimits>
}) {
  const { database, lock, log, residency } = deps
  // As a GET reads (server/http/write-transaction.ts): apart from the writes where the database
  // has a reader, else in turn with them (a `:memory:` database has one connection).
  const readsApart = database.reader !== undefined || database.engine === 'postgres'
  const reading = <T>(fn: () => Promise<T>): Promise<T> => (readsApart ? inReadScope(fn) : lock.run(() => inReadScope(fn)))

  const hub = createLiveHub({ feed: changeFeed({ database, lock, log }), log, limits: deps.limits })

  async function viewerOf(actor: Actor): Promise<Viewer> {
    const superAdmin = isSuperAdmin(actor)
    const residentIn = superAdmin ? [] : await reading(() => residency.residentCompanyIds(actor.userId))
    return { userId: actor.userId, superAdmin, staffOf: new Set(actor.companies.map((c) => c.id)), residentIn: new Set(residentIn) }
  }

  return {
    hub,
    viewerOf,
    /** The viewer of the session behind `token` now; undefined when it has ended (signed out, expired). */
    async revalidate(token: string): Promise<Viewer | undefined> {
      const actor = token ? await deps.authenticate(token) : undefined
      return actor ? await viewerOf(actor) : undefined
    },
    /** Server shutdown: closes every stream and the feed (server/main.ts). */
    stop: () => hub.stop(),
  }
}
