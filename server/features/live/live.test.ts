import { afterEach, describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, testApp, type TestApp } from '../../test/harness'
import { openStream, type Stream } from './test-helpers'

/**
 * GET /api/live (decision 0086): a stream told `changed` when a change its user may see commits,
 * never what changed; bounded per user and in all; a heartbeat that also ends the stream of a
 * session that ended; closed when the server stops.
 */
const opened: Stream[] = []
const apps: TestApp[] = []

afterEach(async () => {
  for (const s of opened.splice(0)) await s.cancel()
  for (const t of apps.splice(0)) await t.services.live.stop()
})

async function app(...args: Parameters<typeof testApp>) {
  const t = await testApp(...args)
  apps.push(t)
  return t
}

async function stream(t: TestApp, token: string | undefined, headers: Record<string, string> = {}) {
  const s = await openStream((path, init) => t.app.request(path, init), token, headers)
  opened.push(s)
  return s
}

const companyOf = async (t: TestApp, token: string) => (await t.call('GET', '/account/info', { token })).json.companies[0].id as string

async function addAddress(t: TestApp, token: string, companyId: string, street: string) {
  const res = await t.call('POST', `/company/${companyId}/addresses`, {
    token,
    body: { street, number: '12', zip: '8000', city: 'Aarhus C' },
    headers: { 'Idempotency-Key': v7() },
  })
  expect(res.status, JSON.stringify(res.json)).toBe(201)
}

describe('GET /api/live', () => {
  it('tells the staff of the association that something changed, and not another association’s administrator; no data of the change', async () => {
    const t = await app()
    const admin = await t.login(demo.admin)
    const board = await t.login(demo.boardmember)
    const other = await t.login(demo.otherAdmin)
    const main = await companyOf(t, admin)
    const second = await companyOf(t, other)
    const boardStream = await stream(t, board)
    const otherStream = await stream(t, other)
    expect(boardStream.status).toBe(200)
    await expect.poll(() => boardStream.named('ready').length).toBe(1)
    await expect.poll(() => otherStream.named('ready').length).toBe(1)

    await addAddress(t, admin, main, 'Vestergade')
    await expect.poll(() => boardStream.named('changed').length).toBe(1)
    expect(boardStream.named('changed')[0]!.data).toBe('{}')

    // Had the first change reached the other administrator, it would come before this one.
    await addAddress(t, other, second, 'Havnegade')
    await expect.poll(() => otherStream.named('changed').length).toBe(1)
    expect(boardStream.named('changed')).toHaveLength(1)
  })

  it('is documented in /api/openapi.json as a stream of events, with its rules', async () => {
    const t = await app()
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as any
    const op = doc.paths['/api/live'].get
    expect(Object.keys(op.responses[200].content)).toEqual(['text/event-stream'])
    expect(op.responses[503]).toBeDefined()
    expect(op['x-rules']).toMatchObject({ access: 'signed-in', data: 'own-steps', unbatched: true })
  })

  it('says how long to wait before reconnecting, and refuses a guest', async () => {
    const t = await app()
    const s = await stream(t, await t.login(demo.admin))
    await expect.poll(() => s.named('ready').length).toBe(1)
    expect(s.events[0]!.event).toBe('ready')
    const guest = await stream(t, undefined)
    expect(guest.status).toBe(401)
  })

  it('keeps at most five streams per user: a sixth closes the oldest, saying so', async () => {
    const t = await app()
    const admin = await t.login(demo.admin)
    const streams: Stream[] = []
    for (let i = 0; i < 6; i++) streams.push(await stream(t, admin))
    await expect.poll(() => streams[0]!.ended).toBe(true)
    expect(streams[0]!.named('closed').map((e) => JSON.parse(e.data))).toEqual([{ reason: 'replaced' }])
    expect(t.services.live.hub.count(demo.admin)).toBe(0) // counted by user id, not e-mail
    const info = (await t.call('GET', '/account/info', { token: admin })).json
    expect(t.services.live.hub.count(info.id as string)).toBe(5)
    for (const s of streams.slice(1)) expect(s.ended).toBe(false)
  })

  it('refuses a stream beyond the instance’s bound with 503 in the user’s language', async () => {
    const t = await app({}, { live: { total: 1 } })
    await stream(t, await t.login(demo.admin))
    const refused = await stream(t, await t.login(demo.boardmember), { 'Accept-Language': 'da' })
    expect(refused.status).toBe(503)
    expect(refused.json).toEqual({
      code: 'BUSY',
      message: 'For mange enheder følger med i ændringer lige nu. Ændringerne kommer stadig ved næste synkronisering.',
    })
  })

  it('sends a heartbeat comment, and ends the stream of a session that signed out at the next one', async () => {
    const t = await app({}, { live: { heartbeatMs: 50 } })
    const admin = await t.login(demo.admin)
    const s = await stream(t, admin)
    await expect.poll(() => s.comments.length).toBeGreaterThan(0)
    expect(s.comments[0]!.trim()).toBe('ping')
    expect(s.ended).toBe(false)
    expect((await t.call('POST', '/auth/logout', { token: admin, headers: { 'Idempotency-Key': v7() } })).status).toBeLessThan(300)
    await expect.poll(() => s.ended).toBe(true)
    expect(s.named('closed').map((e) => JSON.parse(e.data))).toEqual([{ reason: 'signed-out' }])
  })

  it('closes every stream when the server stops, and opens none after', async () => {
    const t = await app()
    const a = await stream(t, await t.login(demo.admin))
    const b = await stream(t, await t.login(demo.boardmember))
    await expect.poll(() => a.named('ready').length + b.named('ready').length).toBe(2)
    await t.services.live.stop()
    await expect.poll(() => a.ended && b.ended).toBe(true)
    expect(a.named('closed').map((e) => JSON.parse(e.data))).toEqual([{ reason: 'stopping' }])
    expect((await stream(t, await t.login(demo.admin))).status).toBe(503)
  })

  it('tells a change made after the last stream closed and a new one opened (the feed starts again)', async () => {
    const t = await app()
    const admin = await t.login(demo.admin)
    const main = await companyOf(t, admin)
    const first = await stream(t, admin)
    await expect.poll(() => first.named('ready').length).toBe(1)
    await first.cancel()
    await expect.poll(() => t.services.live.hub.count()).toBe(0)
    await addAddress(t, admin, main, 'Nørregade')
    const second = await stream(t, admin)
    await expect.poll(() => second.named('ready').length).toBe(1)
    await addAddress(t, admin, main, 'Søndergade')
    await expect.poll(() => second.named('changed').length).toBe(1)
  })
})
