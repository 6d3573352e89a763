import { describe, expect, it } from 'vitest'
import type { Mutation } from '../../sync/local-db'
import { phaseOf } from './MoneyActionForm'

const mutation = (extra: Partial<Mutation>): Mutation => ({
  seq: 7,
  mutationId: 'm1',
  kind: 'charge.refund',
  method: 'POST',
  path: '/agreement/a/refund',
  entity: 'charge',
  entityId: 'c1',
  money: true,
  status: 'queued',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: 0,
  ...extra,
})

/** A money action says where it is, and success only once the server accepted it (decision 0045). */
describe('phaseOf (money action form)', () => {
  it('queued offline says queued; queued online or in flight says sending', () => {
    expect(phaseOf([mutation({})], 7, false, true)).toEqual({ phase: 'queued', waitingFor: 'connection' })
    expect(phaseOf([mutation({})], 7, true, true)).toEqual({ phase: 'sending' })
    expect(phaseOf([mutation({ status: 'sending' })], 7, true, true)).toEqual({ phase: 'sending' })
  })

  it('a send that found no server waits queued for the server while the browser is online', () => {
    expect(phaseOf([mutation({ attempts: 1, lastError: '' })], 7, true, true)).toEqual({ phase: 'queued', waitingFor: 'server' })
    // The last sync could not reach the server, the browser has a connection: waiting for the server.
    expect(phaseOf([mutation({})], 7, false, true, true)).toEqual({ phase: 'queued', waitingFor: 'server' })
    // No connection at all: waiting for the connection.
    expect(phaseOf([mutation({ attempts: 3 })], 7, false, true, false)).toEqual({ phase: 'queued', waitingFor: 'connection' })
  })

  it("refused: the server's message, never success", () => {
    expect(phaseOf([mutation({ status: 'rejected', lastError: 'Please enter a valid amount' })], 7, true, true)).toMatchObject({
      phase: 'rejected',
      message: 'Please enter a valid amount',
    })
    expect(phaseOf([mutation({ status: 'conflict', lastError: null })], 7, true, true)).toMatchObject({ phase: 'rejected', message: '' })
  })

  it('accepted once it has left the queue (the drainer removes only confirmed changes), never before it was seen there', () => {
    expect(phaseOf([mutation({ seq: 8 })], 7, true, true)).toEqual({ phase: 'accepted' })
    // The live view of the queue has not caught up with the enqueue yet: still sending, not success.
    expect(phaseOf([], 7, true, false)).toEqual({ phase: 'sending' })
  })
})
