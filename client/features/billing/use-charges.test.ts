import { describe, expect, it } from 'vitest'
import type { Mutation } from '../../sync/local-db'
import { applyOutbox } from '../../sync/optimistic'
import { ONE_TIME_CHARGE, REFUND } from './billing-mutations'
import { refundableOf, refundedOf } from './use-charges'

const executed = {
  id: 'c1',
  agreementId: 'a1',
  companyId: 'co',
  status: 'EXECUTED' as const,
  amount: 50_000,
  history: [{ event: 'CAPTURE', amount: 50_000, occurredAt: '2026-11-01T00:00:00Z' }],
  _version: 3,
}

const queued = (over: Partial<Mutation>): Mutation => ({
  mutationId: crypto.randomUUID(),
  kind: REFUND,
  method: 'POST',
  path: '/agreement/a1/refund',
  entity: 'charge',
  entityId: 'c1',
  status: 'queued',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: Date.parse('2026-11-23T10:00:00Z'),
  money: true,
  ...over,
})

describe('charges with queued money actions', () => {
  it('sums REFUND events and allows refunds only of what is left of a collected charge', () => {
    const refunded = { ...executed, history: [...executed.history, { event: 'REFUND', amount: 12_550, occurredAt: '2026-11-02T00:00:00Z' }] }
    expect(refundedOf(refunded)).toBe(12_550)
    expect(refundableOf(refunded)).toBe(37_450)
    expect(refundableOf({ ...executed, status: 'RESERVED' })).toBe(0)
    expect(refundableOf({ ...refunded, history: [...refunded.history, { event: 'REFUND', amount: 37_450, occurredAt: '2026-11-03T00:00:00Z' }] })).toBe(0)
  })

  it('shows a queued refund in the history and a queued one-off payment as a new pending charge', () => {
    const view = applyOutbox(
      [executed],
      [
        queued({ body: { id: 'r1', chargeId: 'c1', amount: 10_000, description: 'Fejl i varme' } }),
        queued({
          kind: ONE_TIME_CHARGE,
          path: '/agreement/a1/requestOneTimeCharge',
          entityId: 'c2',
          body: { id: 'c2', amount: 25_000, description: 'Nøgle' },
          preview: { agreementId: 'a1', companyId: 'co' },
        }),
      ],
      'charge',
    )
    expect(refundedOf(view.find((c) => c.id === 'c1')!)).toBe(10_000)
    expect(view.find((c) => c.id === 'c2')).toMatchObject({ kind: 'ONE_TIME', status: 'CREATED', amount: 25_000, agreementId: 'a1', _pending: true })
  })
})
