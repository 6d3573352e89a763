import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../test/harness'
import { charges } from '../db/schema/agreements'
import { acceptedWithCollectedCharge, agreementFixtures, createAgreement } from '../features/agreements/test-helpers'
import { createAssembly } from '../features/assemblies/test-helpers'
import { documentedRoutes, type DocumentedRoute } from './route'

/**
 * Access is decided before the body (docs/API.md "Refusals"), proven over the whole OpenAPI
 * document: every signed-in route that reaches an association's data declares its scope, and a
 * request whose body or query fails validation still hears 401 from a guest's side and 404 from
 * another association's administrator — never a 400 that tells an outsider how to word it.
 */

/** The caller's own data: their account, sessions, notifications and push devices; no association is named. */
const OWN = ['/api/account/', '/api/auth/', '/api/notifications/', '/api/push/']

const signedIn = (t: TestApp) => documentedRoutes(t.app).filter((r) => r.rules?.access === 'signed-in')

/** A request of `route` naming the main association (or a made-up item) with a body and query that fail validation. */
function refusedRequest(route: DocumentedRoute, companyId: string, entityId?: string): { path: string; body?: unknown } {
  const scope = route.rules!.scope!
  const named = scope.of === 'company' || scope.of === 'association' ? companyId : (entityId ?? v7())
  let path = route.path.slice('/api'.length).replace(`{${scope.param ?? 'id'}}`, named)
  path = path.replace(/\{[^}]+\}/g, () => v7())
  // A limit no list takes and fields no body has: each fails its schema.
  path += `?limit=oops${scope.in === 'query' ? `&${scope.param}=${named}` : ''}`
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { bogus: 1, ...(scope.in === 'body' ? { [scope.param!]: named } : {}) }
  return { path, body }
}

describe('access before the body', () => {
  it('every signed-in route that names an association or its data declares a scope', async () => {
    const t = await testApp()
    const unscoped = signedIn(t)
      .filter((r) => r.path.includes('{') && !OWN.some((own) => r.path.startsWith(own)) && !r.rules?.scope)
      .map((r) => `${r.method} ${r.path}`)
    expect(unscoped).toEqual([])
  })

  it('another association’s administrator hears 404 and a guest 401 on every scoped route, whatever the body', async () => {
    const t = await testApp()
    const other = await t.login(demo.otherAdmin)
    const companyId = (await t.call('GET', '/account/info', { token: await t.login(demo.admin) })).json.companies[0].id as string
    const scoped = signedIn(t).filter((r) => r.rules?.scope)
    expect(scoped.length).toBeGreaterThan(100)
    const answers: string[] = []
    for (const route of scoped) {
      const { path, body } = refusedRequest(route, companyId)
      const headers = { 'Idempotency-Key': v7(), 'If-Match': '1' }
      const outsider = await t.call(route.method, path, { token: other, body, headers })
      const guest = await t.call(route.method, path, { body, headers })
      // 403 only where nobody but the platform's administrator may act (the route names nothing of theirs).
      const expected = route.path.startsWith('/api/webhook/') ? 403 : 404
      if (outsider.status !== expected || guest.status !== 401) answers.push(`${route.method} ${route.path}: ${outsider.status} ${guest.status}`)
    }
    expect(answers).toEqual([])
  }, 120_000)

  it('an upload with no file, and a body that is not JSON at all, answer the outsider 404 too', async () => {
    const t = await testApp()
    const other = await t.login(demo.otherAdmin)
    const form = new FormData()
    form.set('note', 'no file here')
    const upload = await t.app.request(`/api/messages/${v7()}/attachments`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${other}` } })
    expect(upload.status).toBe(404)
    const broken = await t.call('POST', `/invoice/${v7()}/markPaid`, { token: other, body: '{"note": ', headers: { 'Idempotency-Key': v7() } })
    expect(broken.status).toBe(404)
    // The caller who may act still hears what is wrong with the body.
    const own = await t.call('POST', `/invoice/${v7()}/markPaid`, { token: await t.login(demo.admin), body: '{"note": ', headers: { 'Idempotency-Key': v7() } })
    expect(own.status).toBe(404)
  })

  it('a member whose role a route does not list hears 403 on it, whatever the body', async () => {
    const t = await testApp()
    const board = await t.login(demo.boardmember)
    const companyId = (await t.call('GET', '/account/info', { token: await t.login(demo.admin) })).json.companies[0].id as string
    // An entity of the board member's own association for each kind a route with roles names.
    const agreement = (await createAgreement(t)).id
    const charge = await acceptedWithCollectedCharge(t, agreement)
    const entities: Record<string, string> = {
      agreement,
      invoice: (await t.db.select({ invoiceId: charges.invoiceId }).from(charges).where(eq(charges.id, charge)).get())!.invoiceId!,
      assembly: (await createAssembly(t, companyId)).id,
      // A household is one of the association's addresses (decision 0090).
      household: (await agreementFixtures(t)).addressIds[0]!,
    }
    const withRoles = signedIn(t).filter((r) => r.rules?.scope?.roles && !r.rules.scope.roles.includes('BOARDMEMBER'))
    expect(withRoles.length).toBeGreaterThan(10)
    const answers: string[] = []
    for (const route of withRoles) {
      const kind = route.rules!.scope!.of
      if (kind !== 'company' && kind !== 'association' && !entities[kind]) {
        answers.push(`${route.method} ${route.path}: no ${kind} to try`)
        continue
      }
      const { path, body } = refusedRequest(route, companyId, entities[kind])
      const res = await t.call(route.method, path, { token: board, body, headers: { 'Idempotency-Key': v7(), 'If-Match': '1' } })
      if (res.status !== 403) answers.push(`${route.method} ${route.path}: ${res.status}`)
    }
    expect(answers).toEqual([])
  }, 120_000)
})
