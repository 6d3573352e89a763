/**
 * The queue in the user's terms (docs/OFFLINE.md "Triggers": the sync panel counts waiting changes): one thing the user did is one change, even
 * when it travels as several internal steps (a message written and sent offline is a create and
 * a send; an agreement created and then terminated offline waits on its create). A step that
 * depends on another waiting change is counted and listed with it.
 */
import type { Mutation } from '../../sync/local-db'

export interface UserAction {
  /** The first step: the one the others wait for. */
  head: Mutation
  /** The steps after it, in queue order. */
  steps: Mutation[]
}

/**
 * Groups the queue (in order) into the user's actions and returns those still waiting to be
 * sent. A step waiting behind a refused change belongs to that refused action (it is listed with
 * the problems, not counted as waiting).
 */
export function userActions(queue: readonly Mutation[]): UserAction[] {
  const actions: UserAction[] = []
  const actionOf = new Map<string, UserAction>()
  for (const m of queue) {
    const owner = m.dependsOn ? actionOf.get(m.dependsOn) : undefined
    if (owner) owner.steps.push(m)
    else actions.push({ head: m, steps: [] })
    actionOf.set(m.mutationId, owner ?? actions.at(-1)!)
  }
  return actions.filter((a) => a.head.status === 'queued' || a.head.status === 'sending')
}

/** How many user actions wait to be sent. */
export const countUserActions = (queue: readonly Mutation[]): number => userActions(queue).length
