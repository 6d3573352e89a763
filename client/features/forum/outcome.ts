/**
 * What a forum form does with the server's answer to a change it queued (a thread, a reply, an
 * edit, a delete): success only once the server has it, "queued" while it waits (it stays in the
 * outbox), and when the server refuses it or it meets a newer version, the change is taken back
 * from the outbox and the form gets the reason, so it keeps what was typed and says why. A change
 * refused later, once the form is gone, shows on its thread (ChangeProblem, use-forum.ts).
 */
import { showToast } from '../../lib/toast'
import { awaitServer, withdraw, type Queued } from '../../sync/await-server'
import type { Mutation } from '../../sync/local-db'
import type { SyncHandle } from '../../sync/use-sync'

export interface OutcomeWords {
  queued: (waitingFor: 'connection' | 'server') => string
  /** The refusal in words when the server's message is not enough (a lost access), else null. */
  refusal: (m: Mutation) => string | null
  /** When the server said nothing. */
  refused: string
}

/** True when the change is accepted or kept in the queue; false when it was refused and withdrawn. */
export async function settleChange(
  handle: Pick<SyncHandle, 'db' | 'engine'>,
  queued: Queued,
  texts: { done: string; conflict?: string },
  refused: (message: string) => void,
  words: OutcomeWords,
  browserOnline?: () => boolean,
): Promise<boolean> {
  const result = await awaitServer(handle, [queued], browserOnline)
  if (result.outcome === 'accepted') showToast('success', texts.done)
  else if (result.outcome === 'queued') showToast('info', words.queued(result.waitingFor))
  else {
    await withdraw(handle.db, [queued])
    const m = result.mutation
    refused((result.outcome === 'conflict' && texts.conflict) || words.refusal(m) || m.lastError || words.refused)
    return false
  }
  return true
}
