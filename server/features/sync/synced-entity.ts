import type { Db } from '../../db/client'
import type { SyncEntity } from '../../../shared/contract/sync'
import type { Actor } from '../../access/actor'

export interface SyncedRow {
  id: string
  version: number
  data: Record<string, unknown>
}

/**
 * What the sync endpoint needs from a feature whose rows the offline client keeps. A feature
 * registers one of these; it decides visibility itself, so the sync code holds no domain rules.
 */
export interface SyncedEntity {
  name: SyncEntity
  /** Rows the actor may see with an id after `afterId`, in id order, at most `limit`. */
  snapshot(db: Db, actor: Actor, afterId: string | null, limit: number): Promise<SyncedRow[]>
  /** The current rows among `ids` that the actor may see; an id left out is sent as a delete. */
  load(db: Db, actor: Actor, ids: string[]): Promise<SyncedRow[]>
}
