import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testAppWithVipps, type TestApp } from '../../test/harness'
import { agreementFixtures, createAgreement, createPayload } from '../agreements/test-helpers'
import { callers, classOf, tokenFor } from '../../test/authorization'
import { assemblyBody } from '../assemblies/test-helpers'
import { uploadDocument } from '../documents/test-helpers'

/**
 * `POST /api/sync/batch` changes no one's rights: every caller gets, for a write sent in a batch,
 * the answer the same write gets alone (docs/API.md "Batch"). One row per write the outbox sends,
 * one column per caller (server/test/authorization.ts); each row runs twice on fresh agreements of
 * the demo company, once alone and once as the only item of a batch, and both must match the
 * expected cell. The other association's administrator (O) sees neither company's rows of the other.
 */
type Ctx = { id: string; doc: string; f: Awaited<ReturnType<typeof agreementFixtures>> }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown]

//                                                                                      S C A K B R N O -
const table: Row[] = [
  ['POST', '/agreement', () => '/agreement', 'oooo34441', (c) => createPayload(c.f)],
  ['PATCH', '/agreement/{id}', (c) => `/agreement/${c.id}`, 'oooo33441', () => ({ paymentPeriod: 'WEEKLY' })],
  ['POST', '/agreement/{id}/cancel', (c) => `/agreement/${c.id}/cancel`, 'oooo33441', () => ({ terminationDate: '2026-12-23', finalPaymentRequired: false })],
  ['PUT', '/company/{main}', (c) => `/company/${c.f.main}`, 'oooo34441', () => ({ acronym: 'ABF S' })],
  ['PUT', '/company/{second}', (c) => `/company/${c.f.second}`, 'o444444o1', () => ({ acronym: 'HH' })],
  ['PATCH', '/notifications/read-all', () => '/notifications/read-all', 'oooooooo1'],
  // Documents (docs/PRODUCT.md "Documents"): a document for every member; a resident reads it but may not change it (the neighbour has no agreement here).
  ['PATCH', '/documents/{id}', (c) => `/documents/${c.doc}`, 'ooooo3441', () => ({ title: 'Husorden 2028' })],
  ['DELETE', '/documents/{id}', (c) => `/documents/${c.doc}`, 'ooooo3441'],
  // General assemblies (decision 0061): calling one offline; the full matrix is server/features/assemblies/authorization-matrix.test.ts.
  ['POST', '/assemblies', () => '/assemblies', 'oooo33441', (c) => assemblyBody(c.f.main, { noticeAt: null })],
]

/** The item's own answer; a batch refused as a whole (401 for the anonymous caller) answers for its item. */
async function viaBatch(t: TestApp, token: string | undefined, method: string, path: string, body: unknown): Promise<number> {
  const item = { method, path: `/api${path}`, headers: { 'Idempotency-Key': v7() }, ...(body === undefined ? {} : { body }) }
  const res = await t.call('POST', '/sync/batch', { token, body: { items: [item] } })
  return res.status === 200 ? (res.json.answers[0].status as number) : res.status
}

describe('authorization matrix (writes sent through POST /api/sync/batch)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s gets the same answer in a batch as alone', async (caller) => {
    const t = await testAppWithVipps()
    const f = await agreementFixtures(t)
    const token = await tokenFor(t, caller)
    const admin = caller === 'admin' ? token : await t.login(demo.admin)
    const want: string[] = []
    const alone: string[] = []
    const batched: string[] = []
    for (const [method, route, path, expected, body] of table) {
      const label = `${method} ${route}`
      want.push(`${label} → ${expected[callers.indexOf(caller)]}`)
      const doc = async () =>
        (await uploadDocument(t, admin, { companyId: f.main, title: 'Husorden', category: 'HOUSE_RULES', audience: 'MEMBERS' })).json.id as string
      const single: Ctx = { id: (await createAgreement(t, {}, admin)).id, doc: await doc(), f }
      const res = await t.call(method, path(single), { token, body: body?.(single), headers: { 'Idempotency-Key': v7() } })
      alone.push(`${label} → ${classOf(res.status)}`)
      const inBatch: Ctx = { id: (await createAgreement(t, {}, admin)).id, doc: await doc(), f }
      batched.push(`${label} → ${classOf(await viaBatch(t, token, method, path(inBatch), body?.(inBatch)))}`)
    }
    expect(alone).toEqual(want)
    expect(batched).toEqual(want)
  })
})
