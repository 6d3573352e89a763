import { v7 } from 'uuid'
import type { TestApp } from '../../test/harness'

/** `POST /api/specialists` as the given user. */
export async function createSpecialist(t: TestApp, token: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return await t.call('POST', '/specialists', { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

export const plumber = {
  kind: 'PLUMBER',
  name: 'Jens Vand',
  companyName: 'Vand & Varme ApS',
  phone: '+45 33 12 34 56',
  email: 'Jens@VandVarme.dk',
  website: 'www.vandvarme.dk',
  address: 'Rørvej 4, 2300 København S',
  notes: 'Døgnvagt ved vandskade.\nRing først.',
}
