import { describe, expect, it } from 'vitest'
import type { Mutation } from '../../sync/local-db'
import { countUserActions, userActions } from './user-actions'

const m = (mutationId: string, dependsOn?: string, kind = 'k') => ({ mutationId, dependsOn, kind, status: 'queued' }) as Mutation

describe('userActions: the queue counted in what the user did', () => {
  it('counts a message written and sent offline (create + send) as one change', () => {
    expect(countUserActions([m('create', undefined, 'message.create'), m('send', 'create', 'message.send')])).toBe(1)
  })

  it('keeps independent changes apart, also to the same kind of row', () => {
    expect(countUserActions([m('a'), m('b'), m('c')])).toBe(3)
  })

  it('follows a chain of steps to its first one, and lists them in order', () => {
    const actions = userActions([m('create'), m('other'), m('edit', 'create'), m('send', 'edit')])
    expect(actions.map((a) => [a.head.mutationId, a.steps.map((s) => s.mutationId)])).toEqual([
      ['create', ['edit', 'send']],
      ['other', []],
    ])
  })

  it('a step whose first step was sent meanwhile counts on its own', () => {
    expect(countUserActions([m('send', 'create-already-sent')])).toBe(1)
  })

  it('a step waiting behind a refused change is part of that refused action, not a change waiting', () => {
    const refused = { ...m('create'), status: 'rejected' } as Mutation
    expect(countUserActions([refused, m('send', 'create'), m('other')])).toBe(1)
  })
})
