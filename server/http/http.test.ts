import { onPostgres } from '../test/template-db'
import { describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { demo, testApp } from '../test/harness'
import type { AppEnv } from './app-env'
import { onError } from './error-mapper'

describe('HTTP conventions', () => {
  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const t = await testApp()
    const res = await t.call('POST', '/auth/login', { body: '{"type":"email",' })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('MALFORMED_JSON')
  })

  it('answers a body over 1 MiB with 413', async () => {
    const t = await testApp()
    const res = await t.call('POST', '/auth/forgot-password', { body: { email: 'a'.repeat(1024 * 1024 + 10) } })
    expect(res.status).toBe(413)
    expect(res.json.code).toBe('PAYLOAD_TOO_LARGE')
    const da = await t.call('POST', '/auth/forgot-password', { body: { email: 'a'.repeat(1024 * 1024 + 10) }, headers: { 'Accept-Language': 'da' } })
    expect(da.json.message).toBe('Forespørgslen er for stor (højst 1 MiB).')
  })

  it('answers unknown API paths with a JSON 404 and wrong methods with 405 and Allow', async () => {
    const t = await testApp()
    const unknown = await t.call('GET', '/no-such-thing')
    expect(unknown.status).toBe(404)
    expect(unknown.json).toEqual({ message: 'Not found.', code: 'NOT_FOUND' })
    const wrong = await t.call('DELETE', '/auth/login')
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('Allow')).toContain('POST')
    expect(wrong.json.code).toBe('METHOD_NOT_ALLOWED')
  })

  it('never shows a stack: an unexpected failure is a plain 500', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    // The database goes away under the app (either engine).
    await t.database.close()
    const res = await t.call('GET', '/account/info', { token })
    expect(res.status).toBe(500)
    expect(res.json).toEqual({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' })
  })

  it('answers a write PostgreSQL gave up on for contention with 503 BUSY and Retry-After, in the caller’s language', async () => {
    const app = new Hono<AppEnv>()
    app.use(async (c, next) => {
      c.set('locale', 'da')
      await next()
    })
    app.onError(onError)
    for (const code of ['40001', '40P01', '55P03', '57014'])
      app.post(`/${code}`, () => {
        throw new Error('could not serialize access', { cause: Object.assign(new Error('pg'), { code }) })
      })
    app.post('/other', () => {
      throw Object.assign(new Error('duplicate key'), { code: '23505' })
    })
    for (const code of ['40001', '40P01', '55P03', '57014']) {
      const res = await app.request(`/${code}`, { method: 'POST' })
      expect(res.status, code).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('1')
      expect(await res.json()).toEqual({ code: 'BUSY', message: 'Der gemmes mange ændringer lige nu. Prøv igen om et øjeblik.' })
    }
    expect((await app.request('/other', { method: 'POST' })).status).toBe(500)
  })

  it('sends secure headers and no CORS headers', async () => {
    const t = await testApp()
    const res = await t.call('GET', '/health', { headers: { Origin: 'https://evil.example' } })
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
    expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('X-Frame-Options')).toBe('DENY')
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
    expect(res.headers.get('X-Request-Id')).toBeTruthy()
  })

  it('reports health with the database state and environment', async () => {
    const t = await testApp()
    const res = await t.call('GET', '/health')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ status: 'ok', version: '0.1.0', db: 'ok', engine: onPostgres ? 'postgres' : 'sqlite', env: 'test' })
  })

  it('documents every API route in the generated OpenAPI document', async () => {
    const t = await testApp()
    const doc = (await t.call('GET', '/openapi.json')).json
    expect(doc.openapi).toBe('3.1.0')
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    const served = t.app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !['/api/openapi.json', '/api/docs'].includes(r.path))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
    for (const route of served) expect(documented).toContain(route)
    const page = await t.app.request('/api/docs')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('/api/auth/login')
  })
})
