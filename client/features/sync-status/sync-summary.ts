/** What the sync indicator says, from the engine's status and the queue (a pure function). */
import type { SyncStatus } from '../../sync/engine'
import type { Mutation } from '../../sync/local-db'
import { isPending, isProblem } from '../../sync/use-sync'
import { countUserActions } from './user-actions'

export type SyncState = 'offline' | 'syncing' | 'problem' | 'pending' | 'synced'

export interface SyncSummary {
  /** The indicator's colour and first word, most important first. */
  state: SyncState
  online: boolean
  /** User actions not yet sent (queued or being sent), each counted once however many steps it has. */
  pending: number
  /** Refused by the server or in conflict: the user must decide. */
  problems: number
  /** Of the problems, refused by the server. */
  rejected: number
  /** Of the problems, both sides changed the same field: "needs your choice", not refused (docs/OFFLINE.md "Triggers"). */
  conflicts: number
  /** Pending money actions, labelled "will be sent when online". */
  money: number
  lastSyncedAt: number | null
}

export function summarize(status: SyncStatus, outbox: readonly Mutation[]): SyncSummary {
  const pending = outbox.filter(isPending)
  const problems = outbox.filter(isProblem).length
  const conflicts = outbox.filter((m) => m.status === 'conflict').length
  const online = status.online && status.lastError !== 'offline'
  const state: SyncState =
    !online ? 'offline'
    : problems > 0 ? 'problem'
    : status.syncing ? 'syncing'
    : pending.length > 0 ? 'pending'
    : 'synced'
  // In the user's terms: internal steps of one action (write + send a message) count once.
  return {
    state,
    online,
    pending: countUserActions(outbox),
    problems,
    rejected: problems - conflicts,
    conflicts,
    money: pending.filter((m) => m.money).length,
    lastSyncedAt: status.lastSyncedAt,
  }
}
