import { describe, expect, it } from 'vitest'
import { newBulkId, newId } from '../../lib/ids'
import { VIPPS_IDEMPOTENCY_KEY_MAX, vippsIdempotencyKey, vippsKeys } from './idempotency-key'

describe('Idempotency-Keys sent to Vipps', () => {
  it('every kind of write gets a key of 1–40 characters, for any id we make and any version', () => {
    for (let i = 0; i < 200; i++) {
      const ids = [newId(), newBulkId()]
      for (const id of ids) {
        const keys = [
          vippsKeys.outboxRow(id),
          vippsKeys.webhookRegistration(id),
          vippsKeys.webhookDeletion(id),
          ...[1, 35, 36, 1295, 1296, 46_655, 46_656, Number.MAX_SAFE_INTEGER].map((v) => vippsKeys.agreementDraft(id, v)),
        ]
        for (const key of keys) {
          expect(key.length).toBeGreaterThanOrEqual(1)
          expect(key.length).toBeLessThanOrEqual(VIPPS_IDEMPOTENCY_KEY_MAX)
          expect(key).toMatch(/^[A-Za-z0-9._-]+$/)
        }
      }
    }
  })

  it('keeps the readable form while it fits, so keys of writes already sent stay the same', () => {
    const id = '019a8f3e-1c2b-7d4e-8f00-123456789abc'
    expect(vippsKeys.outboxRow(id)).toBe(id)
    expect(vippsKeys.agreementDraft(id, 3)).toBe(`${id}.3`)
    expect(vippsKeys.webhookDeletion(id)).toBe(`del.${id}`)
    expect(vippsKeys.webhookDeletion(id)).toHaveLength(40)
  })

  it('gives one record and action the same key, and other ones another', () => {
    const id = newId()
    expect(vippsKeys.webhookDeletion(id)).toBe(vippsKeys.webhookDeletion(id))
    expect(vippsKeys.webhookDeletion(id)).not.toBe(vippsKeys.webhookRegistration(id))
    const long = vippsKeys.agreementDraft(id, 46_656)
    expect(long).toBe(vippsKeys.agreementDraft(id, 46_656))
    expect(long).not.toBe(vippsKeys.agreementDraft(id, 46_657))
    expect(vippsIdempotencyKey('x'.repeat(41))).toHaveLength(40)
    expect(vippsIdempotencyKey('x'.repeat(41))).not.toBe(vippsIdempotencyKey('x'.repeat(42)))
  })
})
