import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp } from '../../test/harness'
import { callers, classOf, documentedRoutes, tokenFor } from '../../test/authorization'

/**
 * Who may call which push route (decision 0088): one row per route, one column per caller
 * (server/test/authorization.ts). `o` allowed, `4` 404, `1` 401. Everyone signed in manages their
 * own devices and preferences; the resident's device is 404 to anyone else, the super admin too.
 * Every documented route has a row.
 */
type Ctx = { device: string; endpoint: string; fresh: { endpoint: string; keys: unknown } }
type Row = [method: string, route: string, path: (c: Ctx) => string, expected: string, body?: (c: Ctx) => unknown]

const prefs = () => ({ groups: ['messages'], quietFrom: '22:00', quietTo: '07:00' })
//                                                                                                 S C A K B R N O -
const table: Row[] = [
  ['GET', '/push/vapid-public-key', () => '/push/vapid-public-key', 'oooooooo1'],
  ['GET', '/push/subscriptions', () => '/push/subscriptions', 'oooooooo1'],
  ['POST', '/push/subscriptions', () => '/push/subscriptions', 'oooooooo1', (c) => c.fresh],
  ['GET', '/push/preferences', () => '/push/preferences', 'oooooooo1'],
  ['PUT', '/push/preferences', () => '/push/preferences', 'oooooooo1', prefs],
  // The resident's own device: only the resident finds it; the others' answer is 404, as for none.
  ['POST', '/push/subscriptions/unsubscribe', () => '/push/subscriptions/unsubscribe', '44444o441', (c) => ({ endpoint: c.endpoint })],
  ['DELETE', '/push/subscriptions/{id}', (c) => `/push/subscriptions/${c.device}`, '44444o441'],
]

describe('authorization matrix (push)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    // Two devices of the resident: one named by its endpoint, one by its id.
    const emulated = async () => (await (await t.app.request('/push-emulator/subscriptions', { method: 'POST' })).json()) as { endpoint: string; keys: unknown }
    const mine = await emulated()
    const resident = await t.login(demo.resident)
    expect((await t.call('POST', '/push/subscriptions', { token: resident, body: mine, headers: { 'Idempotency-Key': v7() } })).status).toBe(201)
    const device = await t.call('POST', '/push/subscriptions', { token: resident, body: await emulated(), headers: { 'Idempotency-Key': v7() } })
    expect(device.status).toBe(201)
    const token = await tokenFor(t, caller)
    const want: string[] = []
    const got: string[] = []
    for (const [method, , path, expected, body] of table) {
      const fresh = (await (await t.app.request('/push-emulator/subscriptions', { method: 'POST' })).json()) as Ctx['fresh']
      const c: Ctx = { device: device.json.id, endpoint: mine.endpoint, fresh }
      want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
      const res = await t.call(method, path(c), { token, body: body?.(c), headers: { 'Idempotency-Key': v7() } })
      got.push(`${method} ${path(c)} → ${classOf(res.status)}`)
    }
    expect(got).toEqual(want)
  })

  it('has a row for every push route the API documents', async () => {
    const t = await testApp()
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(await documentedRoutes(t, '/push'))
  })
})
