import { beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { agreements } from '../../db/schema/agreements'
import { companyMembers } from '../../db/schema/companies'
import { users } from '../../db/schema/users'
import { demo, testApp, type TestApp } from '../../test/harness'
import { companyIds } from '../companies/test-helpers'
import { createAgreement } from './test-helpers'

/** Who lives where: a living agreement makes a resident; staff are members without one (docs/ARCHITECTURE.md "Modules"). */
describe('residency', () => {
  let t: TestApp
  let solgaarden: string
  let resident: string
  let chairman: string
  beforeAll(async () => {
    t = await testApp()
    const idOf = async (email: string) => (await t.db.select({ id: users.id }).from(users).where(eq(users.emailAddress, email)).get())!.id
    resident = await idOf(demo.resident)
    chairman = await idOf(demo.chairman)
    solgaarden = (await companyIds(t)).main
    expect(await t.services.residency.residentCompanyIds(resident)).toEqual([])
    await createAgreement(t, {}, await t.login(demo.admin))
  })

  it('a member with a living agreement is a resident there, and only there', async () => {
    expect(await t.services.residency.residentCompanyIds(resident)).toEqual([solgaarden])
    expect(await t.services.residency.isResident(resident, solgaarden)).toBe(true)
    expect(await t.services.residency.residentIds(solgaarden)).toContain(resident)
  })

  it('staff without an agreement are members, not residents', async () => {
    expect(await t.services.residency.isResident(chairman, solgaarden)).toBe(false)
    const members = (await t.services.residency.members(solgaarden)).map((m) => m.id)
    expect(members).toContain(chairman)
    expect(members).toContain(resident)
    expect(new Set(members).size).toBe(members.length)
    const staff = await t.db.select({ id: companyMembers.userId }).from(companyMembers).where(eq(companyMembers.companyId, solgaarden)).all()
    for (const s of staff) expect(members).toContain(s.id)
  })

  it('a closed agreement (moved out) ends the residency', async () => {
    await t.db
      .update(agreements)
      .set({ status: 'CLOSED' })
      .where(and(eq(agreements.memberUserId, resident), eq(agreements.companyId, solgaarden)))
      .run()
    expect(await t.services.residency.isResident(resident, solgaarden)).toBe(false)
    expect(await t.services.residency.residentCompanyIds(resident)).toEqual([])
    expect(await t.services.residency.residentIds(solgaarden)).not.toContain(resident)
    expect((await t.services.residency.members(solgaarden)).map((m) => m.id)).not.toContain(resident)
  })
})
