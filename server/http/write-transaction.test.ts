import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEMO_PASSWORD, demo, testApp } from '../test/harness'
import { usersRepository } from '../features/users/users.repository'
import { authMethods } from '../db/schema/users'
import { authRepository } from '../features/auth/auth.repository'
import { idempotencyKeys } from '../db/schema/platform'
import { onPostgres } from '../test/template-db'
import { SERIALIZATION_ATTEMPTS } from '../db/client'
import { companyIds } from '../features/companies/test-helpers'

const key = (k: string) => ({ 'Idempotency-Key': k })

afterEach(() => vi.restoreAllMocks())

describe('Idempotency-Key on writes', () => {
  it('replays the stored answer for a retried request without a second effect', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const count = async () => (await t.db.select().from(authMethods).all()).length
    const before = await count()
    const body = { type: 'LOGIN_TOKEN', identifier: 'Laptop', currentPassword: DEMO_PASSWORD }
    const first = await t.call('POST', '/account/auth-methods', { token, body, headers: key('k-1') })
    const retry = await t.call('POST', '/account/auth-methods', { token, body, headers: key('k-1') })
    expect(first.status).toBe(201)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    // The generated token is shown once: the stored answer (and so the replay) leaves it out.
    const { token: shownOnce, ...method } = first.json.data
    expect(shownOnce).toBeTruthy()
    expect(retry.json).toEqual({ data: method })
    expect(JSON.stringify(await t.db.select().from(idempotencyKeys).all())).not.toContain(shownOnce)
    expect(await count()).toBe(before + 1)
  })

  it('replays a retried write whose second run would fail (its own first run moved the version on)', async () => {
    const t = await testApp()
    // On PostgreSQL the retry reaches another instance, which has not answered the key itself and
    // so runs the request before it finds the stored answer (decision 0095).
    const retrying = onPostgres ? await testApp({}, { database: t.database }) : t
    const token = await t.login(demo.admin)
    const company = (await companyIds(t)).main
    const version = (await t.call('GET', `/company/${company}`, { token })).json.version as number
    const send = (app = t) =>
      app.call('PATCH', `/company/${company}/field/acronym`, {
        token,
        body: { value: 'SG retry' },
        headers: { ...key('versioned-retry'), 'If-Match': `"${version}"` },
      })
    const first = await send()
    const retry = await send(retrying)
    expect(first.status).toBe(200)
    // Run again, the If-Match would be stale (412): the stored answer is the answer.
    expect(retry.status).toBe(200)
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    expect(retry.json).toEqual(first.json)
    expect((await t.call('GET', `/company/${company}`, { token })).json.version).toBe(version + 1)
  })

  // Two instances of the server share the database only on PostgreSQL; each has its own write lock
  // and its own list of keys in flight, so both may run the request at once.
  it.skipIf(!onPostgres)('answers the same key sent to two instances at once alike, with one effect', async () => {
    const t = await testApp()
    const other = await testApp({}, { database: t.database })
    const token = await t.login(demo.admin)
    const count = async () => (await t.db.select().from(authMethods).all()).length
    const before = await count()
    for (let round = 0; round < 4; round++) {
      const body = { type: 'LOGIN_TOKEN', identifier: `Laptop ${round}`, currentPassword: DEMO_PASSWORD }
      const both = await Promise.all(
        [t, other].map((app) => app.call('POST', '/account/auth-methods', { token, body, headers: key(`two-instances-${round}`) })),
      )
      expect(both.map((res) => res.status)).toEqual([201, 201])
      expect(both.filter((res) => res.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(1)
      expect(both[0]!.json.data.id).toBe(both[1]!.json.data.id)
    }
    expect(await count()).toBe(before + 4)
  })

  it('runs a write again, whole, when PostgreSQL gives it up to keep transactions serializable, with one effect', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const count = async () => (await t.db.select().from(authMethods).all()).length
    const before = await count()
    const insert = authRepository.insertMethod
    // The first run writes its row, then loses to another instance's write (40001): it must leave nothing.
    const spy = vi.spyOn(authRepository, 'insertMethod').mockImplementationOnce(async (db, row) => {
      await insert(db, row)
      throw Object.assign(new Error('could not serialize access due to read/write dependencies among transactions'), { code: '40001' })
    })
    const body = { type: 'LOGIN_TOKEN', identifier: 'Retried', currentPassword: DEMO_PASSWORD }
    const res = await t.call('POST', '/account/auth-methods', { token, body, headers: key('serialize-1') })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    expect(spy).toHaveBeenCalledTimes(2)
    expect(await count()).toBe(before + 1)
    // Its answer was stored by the run that counted: a retry replays it.
    const retry = await t.call('POST', '/account/auth-methods', { token, body, headers: key('serialize-1') })
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    expect(retry.json.data.id).toBe(res.json.data.id)
    // Bounded: a write that never serializes ends after SERIALIZATION_ATTEMPTS runs, as 503 BUSY (server/http/error-mapper.ts).
    const always = vi.spyOn(authRepository, 'insertMethod').mockImplementation(async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' })
    })
    always.mockClear()
    const lost = await t.call('POST', '/account/auth-methods', { token, body: { ...body, identifier: 'Never' } })
    expect(lost.status).toBe(503)
    expect(always).toHaveBeenCalledTimes(SERIALIZATION_ATTEMPTS)
    expect(await count()).toBe(before + 1)
  })

  it('refuses the same key for a different request with 422', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'Anders N.' }, headers: key('k-2') })
    const other = await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'Someone else' }, headers: key('k-2') })
    expect(other.status).toBe(422)
    expect(other.json.code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('answers 409 with Retry-After while the first request with the key still runs', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const body = {
      type: 'EMAIL_PASSWORD',
      identifier: 'anders.private@example.dk',
      secret: 'Strong-pass-1',
      confirmSecret: 'Strong-pass-1',
      currentPassword: DEMO_PASSWORD,
    }
    const [a, b] = await Promise.all([
      t.call('POST', '/account/auth-methods', { token, body, headers: key('k-3') }),
      t.call('POST', '/account/auth-methods', { token, body, headers: key('k-3') }),
    ])
    expect([a.status, b.status].sort()).toEqual([201, 409])
    const busy = a.status === 409 ? a : b
    expect(busy.json.code).toBe('IDEMPOTENCY_IN_PROGRESS')
    expect(busy.headers.get('Retry-After')).toBe('1')
    const after = await t.call('POST', '/account/auth-methods', { token, body, headers: key('k-3') })
    expect(after.status).toBe(201)
    expect(after.headers.get('Idempotent-Replayed')).toBe('true')
  })

  it('rolls the whole effect back when the request fails midway, so the retry applies it once', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const real = usersRepository.update
    vi.spyOn(usersRepository, 'update').mockImplementationOnce(async (db, id, changes) => {
      await real(db, id, changes)
      throw new Error('disk I/O error')
    })
    const crashed = await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'Anders Nielsen Jr.' }, headers: key('k-4') })
    expect(crashed.status).toBe(500)
    const unchanged = await t.call('GET', '/account/info', { token })
    expect(unchanged.json.fullName).toBe('Anders Nielsen')
    expect(unchanged.json.version).toBe(1)
    const retry = await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'Anders Nielsen Jr.' }, headers: key('k-4') })
    expect(retry.status).toBe(200)
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull()
    expect(retry.json.version).toBe(2)
  })

  it('stores a validation failure and replays it', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const first = await t.call('PATCH', '/account/profile/mobileNumber', { token, body: { value: 'abc' }, headers: key('k-5') })
    const again = await t.call('PATCH', '/account/profile/mobileNumber', { token, body: { value: 'abc' }, headers: key('k-5') })
    expect(first.status).toBe(400)
    expect(again.status).toBe(400)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
  })

  it('scopes keys to the user', async () => {
    const t = await testApp()
    const a = await t.login(demo.admin)
    const b = await t.login(demo.chairman)
    const first = await t.call('PATCH', '/account/profile/fullName', { token: a, body: { value: 'A' }, headers: key('shared') })
    const second = await t.call('PATCH', '/account/profile/fullName', { token: b, body: { value: 'B' }, headers: key('shared') })
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.json.fullName).toBe('B')
  })

  it('refuses a key longer than 64 characters', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const res = await t.call('PATCH', '/account/profile/fullName', { token, body: { value: 'A' }, headers: key('x'.repeat(65)) })
    expect(res.status).toBe(400)
  })
})
