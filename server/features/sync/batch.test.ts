import { count, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { messages as messagesTable } from '../../db/schema/messages'
import { companyIds } from '../companies/test-helpers'
import { SYNC_BATCH_MAX_ITEMS, type SyncBatchItem } from '../../../shared/contract/sync'

const draft = (companyId: string, extra: Record<string, unknown> = {}) => ({
  companyId,
  type: 'NOTICE',
  subject: 'Generalforsamling 2027',
  body: 'Kære beboere, generalforsamlingen holdes den 12. marts.',
  recipient: { kind: 'ALL_MEMBERS' },
  ...extra,
})

const item = (method: string, path: string, body?: unknown, ifMatch?: string, key = v7()): SyncBatchItem => ({
  method,
  path,
  headers: { 'Idempotency-Key': key, ...(ifMatch ? { 'If-Match': ifMatch } : {}) },
  ...(body === undefined ? {} : { body }),
})

const batch = (t: TestApp, token: string | undefined, items: SyncBatchItem[], headers: Record<string, string> = {}) =>
  t.call('POST', '/sync/batch', { token, body: { items }, headers })

const draftsOf = async (t: TestApp, companyId: string) =>
  (await t.db.select({ n: count() }).from(messagesTable).where(eq(messagesTable.companyId, companyId)).get())!.n

describe('POST /api/sync/batch', () => {
  let t: TestApp
  let admin: string
  let main: string
  beforeEach(async () => {
    t = await testApp()
    admin = await t.login(demo.admin)
    main = (await companyIds(t)).main
  })

  it('applies the items one after another, in order, each answered with its status, headers and body', async () => {
    const id = v7()
    const res = await batch(t, admin, [
      item('POST', '/api/messages', draft(main, { id })),
      item('PATCH', `/api/messages/${id}`, { subject: 'Rettet' }, '"1"'),
      item('PATCH', `/api/messages/${id}`, { subject: 'Rettet igen' }, '"2"'),
    ])
    expect(res.status).toBe(200)
    expect(res.json.answers.map((a: { status: number }) => a.status)).toEqual([201, 200, 200])
    expect(res.json.answers[0].body).toMatchObject({ id, version: 1, subject: 'Generalforsamling 2027' })
    expect(res.json.answers[2]).toMatchObject({ headers: { etag: '"3"' }, body: { subject: 'Rettet igen', version: 3 } })
    expect(res.json.answers[0].headers['x-request-id']).toEqual(expect.any(String))
    expect((await t.call('GET', `/messages/${id}`, { token: admin })).json).toMatchObject({ subject: 'Rettet igen', version: 3 })
  })

  it('the same batch sent twice replays every stored answer and applies nothing twice', async () => {
    const items = Array.from({ length: 20 }, (_, i) => item('POST', '/api/messages', draft(main, { id: v7(), subject: `Opslag ${i}` })))
    const before = await draftsOf(t, main)
    const first = await batch(t, admin, items)
    const again = await batch(t, admin, items)
    expect(first.json.answers.every((a: { status: number }) => a.status === 201)).toBe(true)
    expect(again.json.answers.map((a: { body: unknown }) => a.body)).toEqual(first.json.answers.map((a: { body: unknown }) => a.body))
    expect(again.json.answers.every((a: { headers: Record<string, string> }) => a.headers['idempotent-replayed'] === 'true')).toBe(true)
    expect(first.json.answers.some((a: { headers: Record<string, string> }) => a.headers['idempotent-replayed'])).toBe(false)
    expect(await draftsOf(t, main)).toBe(before + 20)
  })

  it('a mutation sent alone and then in a batch (or the other way round) is the same request to the server', async () => {
    const alone = item('POST', '/api/messages', draft(main, { id: v7() }))
    const single = await t.call('POST', '/messages', { token: admin, body: alone.body, headers: alone.headers })
    const inBatch = await batch(t, admin, [alone])
    expect(inBatch.json.answers[0]).toMatchObject({ status: 201, headers: { 'idempotent-replayed': 'true' }, body: single.json })
    // The same key with another body is refused per item, exactly as alone.
    const reused = await batch(t, admin, [{ ...alone, body: draft(main, { id: v7(), subject: 'Andet' }) }])
    expect(reused.json.answers[0]).toMatchObject({ status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } })
  })

  it('one item answered 412 does not stop the others; each failure rolls back only its own item', async () => {
    const a = (await t.call('POST', '/messages', { token: admin, body: draft(main) })).json
    const b = (await t.call('POST', '/messages', { token: admin, body: draft(main) })).json
    const res = await batch(t, admin, [
      item('PATCH', `/api/messages/${a.id}`, { subject: 'Stale' }, '"7"'),
      item('PATCH', `/api/messages/${b.id}`, { subject: 'Fresh' }, '"1"'),
      item('PATCH', `/api/messages/${v7()}`, { subject: 'Nobody' }),
      item('POST', '/api/messages', { companyId: main }),
    ])
    expect(res.status).toBe(200)
    const [stale, fresh, missing, invalid] = res.json.answers
    expect(stale).toMatchObject({ status: 412, body: { code: 'VERSION_CONFLICT', current: { id: a.id, version: 1 } } })
    expect(fresh).toMatchObject({ status: 200, headers: { etag: '"2"' }, body: { subject: 'Fresh' } })
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect(invalid).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } })
    expect((await t.call('GET', `/messages/${a.id}`, { token: admin })).json.subject).toBe('Generalforsamling 2027')
  })

  it('refuses the whole batch, naming the item in the caller’s language, when an item is not a write under /api', async () => {
    const before = await draftsOf(t, main)
    const ok = item('POST', '/api/messages', draft(main, { id: v7() }))
    const refused = async (bad: SyncBatchItem, field: string) => {
      const res = await batch(t, admin, [ok, bad], { 'Accept-Language': 'da' })
      expect(res.status, `${bad.method} ${bad.path}`).toBe(400)
      expect(res.json.code).toBe('VALIDATION_FAILED')
      expect(res.json.issues).toEqual([{ path: `items.1.${field}`, message: expect.stringContaining('2') }])
      return res.json.message as string
    }
    expect(await refused(item('GET', '/api/messages'), 'method')).toBe('Element 2 kan ikke sendes i en samlet forsendelse: kun POST, PUT, PATCH og DELETE kan.')
    for (const path of [
      '/api/auth/login',
      '/api/auth/logout',
      '/api/sync/batch',
      '/api/sync/batch/',
      '/api/messages/anonymous',
      '/api/../api/auth/logout',
      '/api/%61uth/logout',
      '/health',
      'api/messages',
      '//evil.example/api/messages',
    ])
      expect(await refused(item('POST', path, {}), 'path')).toMatch(/^Element 2 kan ikke sendes/)
    // English without a language asked for; nothing of the batch ran.
    const en = await batch(t, admin, [ok, item('OPTIONS', '/api/messages')])
    expect(en.json.message).toBe('Item 2 cannot be sent in a batch: only POST, PUT, PATCH and DELETE can.')
    expect(await draftsOf(t, main)).toBe(before)
  })

  it(`takes 1 to ${SYNC_BATCH_MAX_ITEMS} items, needs an Idempotency-Key on each, and a signed-in caller`, async () => {
    const many = Array.from({ length: SYNC_BATCH_MAX_ITEMS + 1 }, () => item('PATCH', '/api/notifications/read-all'))
    expect((await batch(t, admin, many)).status).toBe(400)
    expect((await batch(t, admin, [])).status).toBe(400)
    const noKey = { method: 'PATCH', path: '/api/notifications/read-all', headers: {} } as unknown as SyncBatchItem
    expect((await batch(t, admin, [noKey])).json).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'items.0.headers.Idempotency-Key' }] })
    expect((await batch(t, undefined, [item('PATCH', '/api/notifications/read-all')])).status).toBe(401)
    expect((await batch(t, admin, many.slice(0, SYNC_BATCH_MAX_ITEMS))).json.answers).toHaveLength(SYNC_BATCH_MAX_ITEMS)
  })

  it('refuses header values no HTTP request could carry with a 400, before any item is applied', async () => {
    const before = await draftsOf(t, main)
    for (const bad of [item('POST', '/api/messages', draft(main), '"1"\r\nX: y'), item('POST', '/api/messages', draft(main), undefined, 'nøgle-🔑')]) {
      const res = await batch(t, admin, [item('POST', '/api/messages', draft(main, { id: v7() })), bad], { 'Accept-Language': 'da' })
      expect(res.status).toBe(400)
      expect(res.json.code).toBe('VALIDATION_FAILED')
    }
    expect(await draftsOf(t, main)).toBe(before)
  })

  it('a batch counts as its items against each route’s rate limit', async () => {
    const report = () => item('POST', '/api/logger', { level: 'ERROR', message: 'boom' })
    const first = await batch(t, admin, Array.from({ length: 40 }, report))
    const second = await batch(t, admin, Array.from({ length: 40 }, report))
    const statuses = [...first.json.answers, ...second.json.answers].map((a: { status: number }) => a.status)
    // POST /logger allows 60 a minute per user (app.ts).
    expect(statuses.filter((s) => s === 204)).toHaveLength(60)
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true)
    expect(second.json.answers.at(-1).headers['retry-after']).toEqual(expect.any(String))
  })

  it('an item runs as the caller: another staff member gets the answer a single request gets', async () => {
    const mine = (await t.call('POST', '/messages', { token: admin, body: draft(main) })).json
    const chairman = await t.login(demo.chairman)
    const res = await batch(t, chairman, [item('PATCH', `/api/messages/${mine.id}`, { subject: 'Ikke min' })])
    // A draft is its author's alone: another staff member gets the 404 a single request gets.
    expect(res.json.answers[0]).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect((await t.call('PATCH', `/messages/${mine.id}`, { token: chairman, body: { subject: 'Ikke min' } })).status).toBe(404)
  })
})
