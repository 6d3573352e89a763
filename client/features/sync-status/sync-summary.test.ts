import { describe, expect, it } from 'vitest'
import type { SyncStatus } from '../../sync/engine'
import type { Mutation } from '../../sync/local-db'
import { summarize } from './sync-summary'

const status = (over: Partial<SyncStatus> = {}): SyncStatus => ({
  online: true,
  syncing: false,
  authPaused: false,
  lastSyncedAt: 1000,
  lastError: null,
  ...over,
})
const m = (status: Mutation['status'], money = false) => ({ status, money }) as Mutation

describe('summarize', () => {
  it('is synced with an empty queue while online', () => {
    expect(summarize(status(), [])).toMatchObject({ state: 'synced', online: true, pending: 0, problems: 0, lastSyncedAt: 1000 })
  })

  it('counts queued and sending changes as pending, and pending money actions apart', () => {
    expect(summarize(status(), [m('queued'), m('sending', true), m('rejected')])).toMatchObject({ pending: 2, money: 1, problems: 1 })
  })

  it("counts a conflict as needing the user's choice, not as rejected", () => {
    expect(summarize(status(), [m('conflict'), m('rejected'), m('conflict')])).toMatchObject({ problems: 3, rejected: 1, conflicts: 2, state: 'problem' })
  })

  it('counts waiting changes in user actions: a message written and sent offline is one change', () => {
    const create = { ...m('queued'), mutationId: 'create' } as Mutation
    const send = { ...m('queued'), mutationId: 'send', dependsOn: 'create' } as Mutation
    expect(summarize(status(), [create, send]).pending).toBe(1)
  })

  it('says offline when the browser is offline or the server could not be reached', () => {
    expect(summarize(status({ online: false }), [m('queued')]).state).toBe('offline')
    expect(summarize(status({ lastError: 'offline' }), []).state).toBe('offline')
  })

  it('puts refused changes before syncing and pending ones', () => {
    expect(summarize(status({ syncing: true }), [m('conflict'), m('queued')]).state).toBe('problem')
    expect(summarize(status({ syncing: true }), [m('queued')]).state).toBe('syncing')
    expect(summarize(status(), [m('queued')]).state).toBe('pending')
  })
})
