import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client'
import { seedDemoData } from '../../db/seed'
import { agreementAddresses, agreements } from '../../db/schema/agreements'
import { householdResidents, households } from '../../db/schema/households'
import { TestClock } from '../../lib/clock'
import { createSecretBox } from '../../lib/secret-box'
import { livesThereOn } from '../../../shared/domain/household'

describe('demo households (server/db/seed-households.ts)', () => {
  it('makes every demo address a household with figures, and its residents agree with the agreements', async () => {
    const { db } = openDatabase(':memory:')
    await seedDemoData(db, new TestClock('2026-11-23T09:00:00.000Z'), createSecretBox('test-secret-key'))
    const homes = await db.select().from(households).all()
    expect(homes).toHaveLength(20)
    expect(new Set(homes.map((h) => h.type))).toEqual(new Set(['APARTMENT', 'HOUSE', 'COMMERCIAL']))
    expect(homes.every((h) => h.areaCentiM2! > 0 && h.allocationMilli! > 0 && h.externalId)).toBe(true)
    const residents = await db.select().from(householdResidents).all()
    const links = await db.select().from(agreementAddresses).all()
    const today = '2026-11-23'
    for (const a of (await db.select().from(agreements).all()).filter((x) => x.status === 'ACCEPTED')) {
      const at = links.find((l) => l.agreementId === a.id)!.addressId
      // The running agreement's member lives at its address and pays for it.
      expect(residents.some((r) => r.householdId === at && r.userId === a.memberUserId && r.isPayer && livesThereOn(r, today))).toBe(true)
    }
    // The former resident moved out when the agreement ended.
    const closed = (await db.select().from(agreements).all()).find((x) => x.status === 'CLOSED')!
    expect(residents.find((r) => r.userId === closed.memberUserId)).toMatchObject({ moveOutDate: closed.terminationDate })
  })
})
