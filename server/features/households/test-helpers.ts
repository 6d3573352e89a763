import { v7 } from 'uuid'
import { demo, type TestApp } from '../../test/harness'
import { agreementFixtures } from '../agreements/test-helpers'

/** The demo company's first address as a household, and the admin's token. */
export async function householdFixtures(t: TestApp) {
  const f = await agreementFixtures(t)
  return { ...f, household: f.addressIds[0]!, admin: await t.login(demo.admin) }
}

/** `POST /api/households/{id}/residents` as the given user. */
export async function addResident(t: TestApp, token: string | undefined, householdId: string, body: Record<string, unknown>) {
  return await t.call('POST', `/households/${householdId}/residents`, { token, body, headers: { 'Idempotency-Key': v7() } })
}

/** `POST /api/households/{id}/moves` as the given user. */
export async function registerMove(t: TestApp, token: string | undefined, householdId: string, body: Record<string, unknown>, key = v7()) {
  return await t.call('POST', `/households/${householdId}/moves`, { token, body, headers: { 'Idempotency-Key': key } })
}
