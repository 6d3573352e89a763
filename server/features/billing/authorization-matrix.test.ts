import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { charges } from '../../db/schema/agreements'
import { agreementFixtures } from '../agreements/test-helpers'
import { acceptedAgreement } from './test-helpers'
import { callers, classOf, tokenFor } from '../../test/authorization'
import { transaction } from '../../db/client'

/**
 * Who may use the debtor overview and its actions (docs/PRODUCT.md §6 as policy.ts encodes it):
 * company admin staff (chairman, administrator, accountant) and the super admin; a board member
 * and the invoice's own member get 403; anyone else 404 (another association's data is never
 * revealed); 401 without a token. `o` allowed (any answer but 401/403/404). Each action row runs
 * on a fresh failed invoice of the demo company, billed to the first demo resident ("resident";
 * "neighbour" is another resident). Every debtor route the app serves must have a row.
 */
type Ctx = { invoiceId: string; main: string; second: string }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: () => unknown]

const UNKNOWN = '0190d5e6-0000-7000-8000-00000000beef'

//                                                                                     S C A K B R N O -
const table: Row[] = [
  ['GET', '/debtors', (c) => `/debtors?companyId=${c.main}`, 'oooo33441'],
  ['GET', '/debtors', (c) => `/debtors?companyId=${c.second}`, 'o444444o1'],
  ['GET', '/debtors', () => `/debtors?companyId=${UNKNOWN}`, '444444441'],
  ['POST', '/invoice/{id}/retry', (c) => `/invoice/${c.invoiceId}/retry`, 'oooo33441', () => ({})],
  ['POST', '/invoice/{id}/markPaid', (c) => `/invoice/${c.invoiceId}/markPaid`, 'oooo33441', () => ({ note: 'Bankoverførsel' })],
  ['POST', '/invoice/{id}/writeOff', (c) => `/invoice/${c.invoiceId}/writeOff`, 'oooo33441', () => ({ note: 'Afskrevet' })],
]

/** A failed invoice of the demo company for the first demo resident (billed 28 November, failed 1 December). */
async function failedInvoice(t: TestApp, admin: string): Promise<string> {
  const a = await acceptedAgreement(t, {}, admin)
  t.clock.set('2026-11-28T09:00:00.000Z')
  await t.services.billing.run()
  const charge = (await t.db.select().from(charges).where(eq(charges.agreementId, a.id)).get())!
  await transaction(t.db, async () => {
    await t.db
      .update(charges)
      .set({ status: 'FAILED', vippsChargeId: `chr_${charge.id.slice(-12)}`, version: charge.version + 1 })
      .where(eq(charges.id, charge.id))
      .run()
    await t.services.invoicing.followCharge((await t.services.charges.row(charge.id))!, 'CREATED')
  })
  t.clock.set('2026-11-23T09:00:00.000Z')
  return charge.invoiceId!
}

describe('authorization matrix (debtor routes)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s gets the expected answer on every route', async (caller) => {
    const t = await testApp()
    const { main, second } = await agreementFixtures(t)
    const token = await tokenFor(t, caller)
    const admin = caller === 'admin' && token ? token : await t.login(demo.admin)
    // The resident holds an agreement with the demo company from the start (a link of their own to it).
    await failedInvoice(t, admin)
    const got: string[] = []
    const want: string[] = []
    for (const [method, route, path, expected, body] of table) {
      const ctx: Ctx = { invoiceId: method === 'POST' ? await failedInvoice(t, admin) : UNKNOWN, main, second }
      t.clock.set('2026-12-05T09:00:00.000Z')
      const res = await t.call(method, path(ctx), { token, body: body?.() })
      t.clock.set('2026-11-23T09:00:00.000Z')
      const label = `${method} ${route}${path(ctx)
        .replace(/^[^?]*/, '')
        .replace(main, 'main')
        .replace(second, 'second')
        .replace(UNKNOWN, 'unknown')}`
      got.push(`${label} → ${classOf(res.status)}`)
      want.push(`${label} → ${expected[callers.indexOf(caller)]}`)
    }
    expect(got).toEqual(want)
  })

  it("another association's invoice is 404 for its admin, like one that does not exist", async () => {
    const t = await testApp()
    const id = await failedInvoice(t, await t.login(demo.admin))
    const other = await t.login(demo.otherAdmin)
    for (const action of ['retry', 'markPaid', 'writeOff']) {
      const theirs = await t.call('POST', `/invoice/${id}/${action}`, { token: other, body: { note: 'x' } })
      const missing = await t.call('POST', `/invoice/${UNKNOWN}/${action}`, { token: other, body: { note: 'x' } })
      expect([theirs.status, theirs.json]).toEqual([404, missing.json])
    }
  })

  it('has a row for every debtor route the app serves', async () => {
    const t = await testApp()
    const served = new Set(
      t.app.routes
        .filter((r) => (/^\/api\/debtors/.test(r.path) || /^\/api\/invoice\/:id\/\w+/.test(r.path)) && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/^\/api/, '').replace(/:([A-Za-z]+)/g, '{$1}')}`),
    )
    const listed = new Set(table.map(([method, route]) => `${method} ${route}`))
    expect([...served].filter((r) => !listed.has(r))).toEqual([])
    expect([...listed].filter((r) => !served.has(r))).toEqual([])
  })
})
