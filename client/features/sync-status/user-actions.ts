/**
 * The queue in the user's terms (issue #17 item 5): one thing the user did is one change, even
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

/** Groups waiting changes (in queue order) into the user's actions. */
export function userActions(changes: readonly Mutation[]): UserAction[] {
  const actions: UserAction[] = []
  const actionOf = new Map<string, UserAction>()
  for (const m of changes) {
    const owner = m.dependsOn ? actionOf.get(m.dependsOn) : undefined
    if (owner) owner.steps.push(m)
    else actions.push({ head: m, steps: [] })
    actionOf.set(m.mutationId, owner ?? actions.at(-1)!)
  }
  return actions
}

/** How many user actions wait among these changes. */
export const countUserActions = (changes: readonly Mutation[]): number => userActions(changes).length
