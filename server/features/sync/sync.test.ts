import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { companyMembers } from '../../db/schema/companies'
import { compactChangeLog } from './change-log'

type Change = { entity: string; id: string; op: string; version?: number; data?: Record<string, unknown> }

async function pullAll(t: TestApp, token: string, cursor?: string, limit = 500) {
  const changes: Change[] = []
  let reset = false
  for (;;) {
    const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) })
    const res = await t.call('GET', `/sync?${q}`, { token })
    expect(res.status).toBe(200)
    changes.push(...res.json.changes)
    reset ||= res.json.reset
    cursor = res.json.cursor
    if (!res.json.hasMore) return { changes, cursor: cursor!, reset }
  }
}

/** Only the notification rows (the demo staff also receive company, member, address and provider rows). */
const notes = (changes: Change[]) => changes.filter((c) => c.entity === 'notification')

async function notifyMany(t: TestApp, token: string, n: number) {
  const userId = (await t.call('GET', '/account/info', { token })).json.id
  for (let i = 0; i < n; i++) {
    t.clock.advance(10)
    await t.services.notifications.notify(userId, { type: 'info', title: { id: 'N{i}' }, message: { id: 'm' }, values: { i } })
  }
}

describe('GET /api/sync', () => {
  it("sends a first snapshot of only the caller's rows, then only what changed", async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const first = await pullAll(t, token)
    expect(first.reset).toBe(false)
    expect(notes(first.changes)).toHaveLength(1)
    expect(notes(first.changes)[0]).toMatchObject({ entity: 'notification', op: 'upsert', version: 1, data: { title: 'Welcome to Boligkasse' } })
    // Both languages travel with it: a device switching to Danish offline shows it in Danish.
    expect(notes(first.changes)[0]!.data!.localized).toMatchObject({
      en: { title: 'Welcome to Boligkasse', actionText: 'Open profile' },
      da: { title: 'Velkommen til Boligkasse', actionText: 'Åbn profil' },
    })
    const nothing = await pullAll(t, token, first.cursor)
    expect(nothing.changes).toEqual([])
    await notifyMany(t, token, 2)
    const id = notes(first.changes)[0]!.id
    await t.call('PATCH', `/notifications/${id}/read`, { token })
    const next = await pullAll(t, token, nothing.cursor)
    expect(next.changes.map((c) => c.op)).toEqual(['upsert', 'upsert', 'upsert'])
    expect(next.changes.find((c) => c.id === id)).toMatchObject({
      version: 2,
      data: { isRead: true, localized: { da: { title: 'Velkommen til Boligkasse' } } },
    })
  })

  it('pages through snapshot and log with hasMore, and sends each row once per page', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await notifyMany(t, token, 25)
    const snap = await pullAll(t, token, undefined, 7)
    expect(notes(snap.changes)).toHaveLength(26)
    // A row is its entity and id: a household shares its address's id (docs/decisions/0090).
    expect(new Set(snap.changes.map((c) => `${c.entity}:${c.id}`)).size).toBe(snap.changes.length)
    await notifyMany(t, token, 12)
    await t.call('PATCH', '/notifications/read-all', { token })
    const log = await pullAll(t, token, snap.cursor, 10)
    const ids = new Set(log.changes.map((c) => c.id))
    expect(ids.size).toBe(38)
    expect(log.changes.filter((c) => c.data?.isRead === false)).toHaveLength(0)
  })

  it("names the next page in a Link header, the same as the body's cursor, and none on the last page", async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await notifyMany(t, token, 5)
    let cursor: string | undefined
    for (let page = 0; ; page++) {
      const res = await t.call('GET', `/sync?${new URLSearchParams({ limit: '3', ...(cursor ? { cursor } : {}) })}`, { token })
      const link = res.headers.get('Link')
      if (!res.json.hasMore) {
        expect(page).toBeGreaterThan(1)
        expect(link).toBeNull()
        break
      }
      expect(link).toBe(`</api/sync?${new URLSearchParams({ limit: '3', cursor: res.json.cursor })}>; rel="next"`)
      cursor = res.json.cursor
    }
  })

  it('sends a delete for a removed row', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const first = await pullAll(t, token)
    const id = notes(first.changes)[0]!.id
    await t.call('DELETE', `/notifications/${id}`, { token })
    const next = await pullAll(t, token, first.cursor)
    expect(next.changes).toEqual([{ entity: 'notification', id, op: 'delete' }])
  })

  it("never sends another user's rows", async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const chairman = await t.login(demo.chairman)
    const start = await pullAll(t, chairman)
    await notifyMany(t, admin, 5)
    const next = await pullAll(t, chairman, start.cursor)
    expect(next.changes).toEqual([])
  })

  it('tells the client to reset when its access changed', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const first = await pullAll(t, token)
    const me = (await t.call('GET', '/account/info', { token })).json.id
    await t.db.delete(companyMembers).where(eq(companyMembers.userId, me)).run()
    // A hand edit of the database bypasses the writers that invalidate cached actors.
    t.services.users.actors.invalidateAll()
    const after = await pullAll(t, token, first.cursor)
    expect(after.reset).toBe(true)
    expect(after.changes).toHaveLength(1)
  })

  it('tells the client to reset when its cursor is older than the compacted log', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const first = await pullAll(t, token)
    await notifyMany(t, token, 3)
    t.clock.advance(1000)
    expect(await compactChangeLog(t.db, t.clock.now().toISOString())).toBeGreaterThan(0)
    await notifyMany(t, token, 1)
    const after = await pullAll(t, token, first.cursor)
    expect(after.reset).toBe(true)
    expect(notes(after.changes)).toHaveLength(5)
    const fresh = await pullAll(t, token, after.cursor)
    expect(fresh).toMatchObject({ changes: [], reset: false })
  })

  it('starts over on an unreadable cursor and refuses a bad limit', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const res = await t.call('GET', '/sync?cursor=garbage', { token })
    expect(res.json.reset).toBe(true)
    expect((await t.call('GET', '/sync?limit=0', { token })).status).toBe(400)
    expect((await t.call('GET', '/sync')).status).toBe(401)
  })

  it('starts over on a forged cursor whose snapshot position is not one it issued, never a 500', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const issued = JSON.parse(Buffer.from((await t.call('GET', '/sync?limit=1', { token })).json.cursor, 'base64url').toString()) as { s: number; a: string }
    const forge = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url')
    for (const snap of [{ e: -1, id: null }, { e: 1.5, id: null }, { e: 0, id: { x: 1 } }, { e: 0, id: 5 }, { e: 99, id: null }, null, []]) {
      const res = await t.call('GET', `/sync?${new URLSearchParams({ cursor: forge({ s: issued.s, a: issued.a, snap }) })}`, { token })
      expect(res.status, JSON.stringify(snap)).toBe(200)
      expect(res.json.reset, JSON.stringify(snap)).toBe(true)
    }
    for (const c of [{ s: 1e308, a: issued.a }, { s: '1', a: issued.a }, [issued.s, issued.a], null]) {
      const res = await t.call('GET', `/sync?${new URLSearchParams({ cursor: forge(c) })}`, { token })
      expect(res.json.reset, JSON.stringify(c)).toBe(true)
    }
  })
})
