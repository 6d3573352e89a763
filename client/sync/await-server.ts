/**
 * What a form may say right after queuing changes (docs/OFFLINE.md "Conflicts and refusals"): only the server's acceptance
 * is success. A form that leaves when the user submits (the message form) asks once where its
 * changes are: still waiting for the connection or for the server (queued, and kept), accepted,
 * or refused. While the server is reachable it waits for its answer (one drain round or a few).
 */
import type { LocalDb, Mutation } from './local-db'
import type { SyncEngine } from './engine'

/**
 * - `queued`: kept on this device, waiting for the connection (the browser is offline) or for the
 *   server to answer (the browser is online, but the server is down or unreachable);
 * - `accepted`: the server has every one of them;
 * - `conflict`: one met a newer version on the server: the user chooses in the sync panel;
 * - `rejected`: the server refused one (`mutation`, with its message or refusal).
 */
export type ServerOutcome =
  | { outcome: 'queued'; waitingFor: 'connection' | 'server' }
  | { outcome: 'accepted' }
  | { outcome: 'conflict'; mutation: Mutation }
  | { outcome: 'rejected'; mutation: Mutation }

const browserIsOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine)

/** How many drain rounds to wait for an answer before calling the changes queued. */
const MAX_ROUNDS = 6

/**
 * A change as the outbox stored it, followed by its place in the queue: a merge after a 412 sends
 * it again under a new mutation id (outbox.ts requeueMerged), possibly before the form asks.
 */
export type Queued = Pick<Mutation, 'seq'>

const seqsOf = (queued: readonly Queued[]): number[] =>
  queued.map((m) => {
    if (m.seq === undefined) throw new Error('A change that is not in the outbox cannot be followed')
    return m.seq
  })

/**
 * Where the changes `queued` (queued together, in order) stand: asks the engine to send them
 * and waits for the server's answer while it is reachable. A change that left the outbox was
 * confirmed (the drainer removes a change only then; a refused one stays).
 */
export async function awaitServer(
  handle: { db: LocalDb; engine: Pick<SyncEngine, 'kick' | 'status'> },
  queued: readonly Queued[],
  browserOnline: () => boolean = browserIsOnline,
): Promise<ServerOutcome> {
  const { db, engine } = handle
  const seqs = seqsOf(queued)
  for (let round = 0; ; round++) {
    const stored = (await db.outbox.bulkGet(seqs)).filter((m): m is Mutation => m !== undefined)
    const refused = stored.find((m) => m.status === 'rejected')
    if (refused) return { outcome: 'rejected', mutation: refused }
    const conflict = stored.find((m) => m.status === 'conflict')
    if (conflict) return { outcome: 'conflict', mutation: conflict }
    if (stored.length === 0) return { outcome: 'accepted' }
    if (!browserOnline()) return { outcome: 'queued', waitingFor: 'connection' }
    // The server could not be reached at the last sync, or not when these were sent: they wait for it.
    if (!engine.status.get().online || stored.some((m) => m.attempts > 0) || round >= MAX_ROUNDS) return { outcome: 'queued', waitingFor: 'server' }
    await engine.kick()
  }
}

/** Takes back changes the form keeps for the user to fix and submit again (a refused one and those that waited on it). */
export async function withdraw(db: LocalDb, queued: readonly Queued[]): Promise<void> {
  await db.outbox.bulkDelete(seqsOf(queued))
}
