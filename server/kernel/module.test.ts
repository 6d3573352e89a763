import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { modules } from '../app'
import { demo, testApp } from '../test/harness'
import { throwawayModule } from '../test/throwaway-module'
import { documentedRoutes } from '../http/route'
import { makeServices } from './container'
import { defineModule } from './module'
import type { Kernel } from './kernel'

const openApi = async (t: Awaited<ReturnType<typeof testApp>>) => (await t.app.request('/api/openapi.json')).json() as Promise<Record<string, any>>

describe('a feature module', () => {
  it('in a folder of its own is served with the rules it declares, and nothing else changes', async () => {
    const plain = await testApp()
    const notes = throwawayModule()
    const t = await testApp({}, { modules: [...modules, notes] })

    // The document: the same paths and components as before, and the module's two paths.
    const [before, after] = [await openApi(plain), await openApi(t)]
    const added = Object.keys(after.paths).filter((p) => !(p in before.paths))
    expect(added.sort()).toEqual(['/api/throwaway-notes', '/api/throwaway-notes/count'])
    for (const path of Object.keys(before.paths)) expect(after.paths[path], path).toEqual(before.paths[path])
    expect(after.components).toEqual(before.components)
    expect(after.paths['/api/throwaway-notes'].post['x-rules']).toEqual({ access: 'signed-in', data: 'write' })

    // Its rules: a guest reads; writing needs a user (before the body is looked at); the count is the super admin's.
    expect((await t.call('GET', '/throwaway-notes')).json).toEqual([])
    expect((await t.call('POST', '/throwaway-notes', { body: { text: '' } })).status).toBe(401)
    const resident = await t.login(demo.resident)
    expect((await t.call('POST', '/throwaway-notes', { token: resident, body: { text: '' } })).status).toBe(400)
    // A write runs in the write transaction, with its Idempotency-Key: the retry is answered, not done again.
    const key = v7()
    const first = await t.call('POST', '/throwaway-notes', { token: resident, body: { text: 'Bike room is open' }, headers: { 'Idempotency-Key': key } })
    const again = await t.call('POST', '/throwaway-notes', { token: resident, body: { text: 'Bike room is open' }, headers: { 'Idempotency-Key': key } })
    expect([first.status, again.status, again.headers.get('Idempotent-Replayed')]).toEqual([201, 201, 'true'])
    expect(notes.notes).toHaveLength(1)
    expect((await t.call('GET', '/throwaway-notes/count', { token: resident })).status).toBe(403)
    expect((await t.call('GET', '/throwaway-notes/count', { token: await t.login(demo.superadmin) })).json).toEqual({ count: 1 })

    // Its job joins the others; every other module's services and jobs are as they were.
    expect(t.jobs.map((j) => j.name)).toEqual([...plain.jobs.map((j) => j.name), 'throwaway-notes'])
    expect(Object.keys(t.services).sort()).toEqual(Object.keys(plain.services).sort())
  })

  it('declares every route of the app with its rules', async () => {
    const t = await testApp()
    const routes = documentedRoutes(t.app)
    expect(routes.length).toBeGreaterThan(150)
    expect(routes.filter((r) => r.rules === undefined).map((r) => `${r.method} ${r.path}`)).toEqual([])
    // Routes that take their own steps say why: they wait on Vipps, or have a reason of their own.
    for (const r of routes.filter((r) => r.rules!.data === 'own-steps')) expect(r.rules!.calls ?? r.rules!.why, `${r.method} ${r.path}`).toBeTruthy()
    // A guest is refused every route that is not public, before anything else is looked at.
    for (const r of routes.filter((r) => r.rules!.access !== 'public').slice(0, 400)) {
      const path = r.path.replace(/^\/api/, '').replace(/\{[^}]+\}/g, v7())
      expect((await t.call(r.method, path, { body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} })).status, `${r.method} ${r.path}`).toBe(401)
    }
  })

  it('owns its tables: every table of the schema belongs to one module or to the platform', async () => {
    const { platformTables } = await import('../app')
    const dir = new URL('../db/schema/', import.meta.url)
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
    const schema = Object.assign({}, ...(await Promise.all(files.map((f) => import(new URL(f, dir).href)))))
    const owners = new Map<unknown, string>()
    for (const m of modules)
      for (const table of m.tables) {
        expect(owners.get(table), `a table owned twice (${m.name})`).toBeUndefined()
        owners.set(table, m.name)
      }
    for (const table of platformTables) owners.set(table, 'platform')
    const { getTableName, is, Table } = await import('drizzle-orm')
    const unowned = Object.values(schema as Record<string, unknown>)
      .filter((v) => is(v, Table))
      .filter((table) => !owners.has(table))
      .map((table) => getTableName(table as never))
    expect(unowned).toEqual([])
  })
})

describe('the services of the modules', () => {
  const kernel = {} as Kernel
  it('are made on first use, whatever the order of the modules', () => {
    const made: string[] = []
    const late = defineModule({
      name: 'late',
      tables: [],
      services: {
        ['b' as never]: (s: any) => {
          const a = s.a
          made.push('b')
          return { a }
        },
      } as never,
    })
    const early = defineModule({ name: 'early', tables: [], services: { ['a' as never]: () => (made.push('a'), 'A') } as never })
    const services = makeServices([late, early], kernel) as any
    expect(made).toEqual(['a', 'b'])
    expect(services.b).toEqual({ a: 'A' })
  })

  it('refuses a name two modules declare, a name no module declares, and services that need each other', () => {
    const one = (name: string, service: string, factory: (s: any) => unknown) =>
      defineModule({ name, tables: [], services: { [service as never]: factory } as never })
    expect(() => makeServices([one('m1', 'a', () => 1), one('m2', 'a', () => 2)], kernel)).toThrow('service "a" is declared by both m1 and m2')
    expect(() => makeServices([one('m1', 'a', (s) => s.nowhere)], kernel)).toThrow('no module declares the service "nowhere" (needed by a)')
    expect(() => makeServices([one('m1', 'a', (s) => s.b), one('m2', 'b', (s) => s.a)], kernel)).toThrow('services need each other to be made: a → b → a')
  })
})
