/**
 * The demo association's households (docs/decisions/0090): every address a household with a type,
 * an area and an allocation figure consistent with its size, and residents consistent with the demo
 * agreements — each running agreement's member lives at its address and pays for it, the member
 * with an agreement to accept moves in when it starts, the former resident moved out when theirs
 * ended, and one household has a second (non-paying) resident.
 */
import type { Db } from './client'
import { householdResidents, households } from './schema/households'
import { newId } from '../lib/ids'

export interface DemoStay {
  email: string
  name: string
  addressId: string
  moveInDate: string
  moveOutDate?: string
  kind: 'OWNER' | 'TENANT'
  isPayer: boolean
}

/** Households for `addressIds` (in the demo's order) and the residents of `stays`. */
export async function seedDemoHouseholds(
  db: Db,
  companyId: string,
  addressIds: readonly string[],
  stays: readonly DemoStay[],
  userIds: Map<string, string>,
  now: string,
) {
  await db
    .insert(households)
    .values(
      addressIds.map((addressId, i) => {
        // The last flat on Solgårdsvej is a shop and one on Havrevænget the caretaker's house; the rest are flats of 55–97 m².
        const type =
          i === 11 ? ('COMMERCIAL' as const)
          : i === 18 ? ('HOUSE' as const)
          : ('APARTMENT' as const)
        const areaCentiM2 = 5_550 + 350 * ((i * 7) % 12) + (i % 2) * 25
        // The allocation figure follows the area: one thousandth per 0.1 m² over 1,000 m² in all, kept exact.
        const allocationMilli = Math.round(areaCentiM2 / 10)
        return { addressId, companyId, type, areaCentiM2, allocationMilli, externalId: `SOL-${String(i + 1).padStart(3, '0')}`, createdAt: now, updatedAt: now }
      }),
    )
    .run()
  for (const s of stays)
    await db
      .insert(householdResidents)
      .values({
        id: newId(),
        companyId,
        householdId: s.addressId,
        userId: userIds.get(s.email)!,
        fullName: s.name,
        moveInDate: s.moveInDate,
        moveOutDate: s.moveOutDate ?? null,
        kind: s.kind,
        isPayer: s.isPayer,
        createdAt: now,
        updatedAt: now,
      })
      .run()
}
