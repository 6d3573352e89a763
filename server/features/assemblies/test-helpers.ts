import { expect } from 'vitest'
import { demo, type TestApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'

/** The first demo resident (Sofie, DA), the second (Lars, DA) and the third (Emma, EN). */
export const residentEn = 'beboer03@solgaarden.dk'

/**
 * The demo company with three residents who hold agreements (DA, DA, EN): its members are those
 * three and its four staff (chairman DA, administrator EN, accountant DA, board member DA).
 */
export async function assemblyFixtures(t: TestApp) {
  const { main, second } = await companyIds(t)
  const admin = await t.login(demo.admin)
  await createAgreement(t, {}, admin)
  await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, admin)
  await createAgreement(t, { emailAddress: residentEn, memberName: 'Emma Hansen' }, admin)
  return { main, second, admin }
}

/** The meeting of the tests: Friday 12 March 2027 19:00 Copenhagen (18:00Z), notice on 20 February 10:00 (09:00Z). */
export const MEETING = '2027-03-12T18:00:00.000Z'
export const NOTICE = '2027-02-20T09:00:00.000Z'
export const REMINDER_14 = '2027-02-26T18:00:00.000Z'
export const REMINDER_2 = '2027-03-10T18:00:00.000Z'
export const DEADLINE = '2027-03-01T11:00:00.000Z'

export const assemblyBody = (companyId: string, extra: Record<string, unknown> = {}) => ({
  companyId,
  title: 'Ordinær generalforsamling 2027',
  heldAt: '2027-03-12T19:00',
  place: 'Fælleshuset, Solvej 2',
  agenda: ['Valg af dirigent', 'Bestyrelsens beretning', 'Godkendelse af årsregnskab'],
  proposalDeadline: '2027-03-01T12:00',
  noticeAt: '2027-02-20T10:00',
  reminderDays: [14, 2],
  ...extra,
})

/** Calls a general assembly as `token` (the chairman by default) and returns it. */
export async function createAssembly(t: TestApp, companyId: string, extra: Record<string, unknown> = {}, token?: string) {
  const res = await t.call('POST', '/assemblies', { token: token ?? (await t.login(demo.chairman)), body: assemblyBody(companyId, extra) })
  expect(res.status, JSON.stringify(res.json)).toBe(201)
  return res.json as { id: string; version: number; sendouts: Array<{ kind: string; days: number | null; dueAt: string; sentAt: string | null }> }
}

/** Moves the test clock to `at` and runs the job once. */
export async function tickAt(t: TestApp, at: string) {
  t.clock.set(at)
  return await t.lock.run(() => t.services.assemblies.tick())
}
