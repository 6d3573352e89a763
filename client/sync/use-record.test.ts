import { describe, expect, it } from 'vitest'
import { absenceOf } from './use-record'

const status = { online: true, syncing: false, lastSyncedAt: 1, lastError: null } as const

describe('why a record is missing', () => {
  it('offline, a record missing from the local copy is "not available offline yet", not "not found"', () => {
    expect(absenceOf({ ...status, online: false })).toBe('offline')
    expect(absenceOf({ ...status, online: false, syncing: true })).toBe('offline')
    // Browser online, server unreachable: the last pull could not reach it.
    expect(absenceOf({ ...status, lastError: 'offline' })).toBe('offline')
  })

  it('online, it is not found once the server has answered', () => {
    expect(absenceOf(status)).toBe('notFound')
    expect(absenceOf({ ...status, lastError: 'error' })).toBe('notFound')
  })

  it('online, it may still arrive while a pull runs or before the first pull', () => {
    expect(absenceOf({ ...status, syncing: true })).toBe('loading')
    expect(absenceOf({ ...status, lastSyncedAt: null })).toBe('loading')
  })
})
