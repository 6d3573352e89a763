import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client'
import { seedDemoData } from '../../db/seed'
import { agreementAddresses, agreementParts, agreements } from '../../db/schema/agreements'
import { TestClock } from '../../lib/clock'
import { createSecretBox } from '../../lib/secret-box'

describe('demo agreements', () => {
  it('seeds six accepted agreements and one awaiting resident 02, numbered from 1001, price = sum of parts', async () => {
    const { db } = openDatabase(':memory:')
    await seedDemoData(db, new TestClock('2026-11-23T09:00:00.000Z'), createSecretBox('test-secret-key'))
    const rows = db.select().from(agreements).all()
    expect(rows.map((r) => r.status)).toEqual([...Array(6).fill('ACCEPTED'), 'CREATED'])
    expect(rows.map((r) => r.externalSeq)).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007])
    expect(rows.every((r) => r.nextRegularPaymentDate === '2026-12-01')).toBe(true)
    const parts = db.select().from(agreementParts).all()
    for (const r of rows) expect(parts.filter((p) => p.agreementId === r.id).reduce((s, p) => s + p.priceOre, 0)).toBe(r.priceOre)
    expect(db.select().from(agreementAddresses).all()).toHaveLength(7)
    // Seeding again changes nothing.
    await seedDemoData(db, new TestClock('2026-11-23T09:00:00.000Z'), createSecretBox('test-secret-key'))
    expect(db.select().from(agreements).all()).toHaveLength(7)
  })
})
