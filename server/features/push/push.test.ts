import { v7 } from 'uuid'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import webpush from 'web-push'
import { demo, testApp, type TestApp } from '../../test/harness'
import { pushKeys, pushOutbox, pushPreferences, pushSubscriptions } from '../../db/schema/push'
import { transaction } from '../../db/client'
import { parseConfig } from '../../env'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'
import { agreements } from '../../db/schema/agreements'
import { eraseOnRequest, newMember, zq } from '../personal-data/test-helpers'
import { isUnder, MAX_DEVICES, safePath } from './push.service'

/** A subscription the built-in push service made, with its private key kept there so its messages decrypt. */
async function emulatedSubscription(t: TestApp): Promise<{ id: string; endpoint: string; keys: { p256dh: string; auth: string } }> {
  const res = await t.app.request('/push-emulator/subscriptions', { method: 'POST' })
  expect(res.status).toBe(201)
  return (await res.json()) as never
}

const received = async (t: TestApp, id: string) =>
  (await (await t.app.request(`/push-emulator/subscriptions/${id}/messages`)).json()) as Array<{ payload: string | null; ttl: number; subject: string }>

const key = () => ({ 'Idempotency-Key': v7() })

/** A demo resident whose language is English (demo.resident and demo.residentDa speak Danish). */
const residentEn = 'beboer03@solgaarden.dk'

/** Signs a resident's device up and chooses what is pushed. */
async function residentDevice(
  t: TestApp,
  preferences: Record<string, unknown> = { groups: ['money', 'messages'], quietFrom: null, quietTo: null },
  email = residentEn,
) {
  const token = await t.login(email)
  const sub = await emulatedSubscription(t)
  const created = await t.call('POST', '/push/subscriptions', { token, body: { endpoint: sub.endpoint, keys: sub.keys }, headers: key() })
  expect(created.status, JSON.stringify(created.json)).toBe(201)
  const prefs = await t.call('PUT', '/push/preferences', { token, body: preferences, headers: key() })
  expect(prefs.status, JSON.stringify(prefs.json)).toBe(200)
  const userId = (await t.call('GET', '/account/info', { token })).json.id as string
  return { token, sub, device: created.json as { id: string }, userId }
}

/** A notification for the user, as a feature makes one inside its write. */
const notify = (t: TestApp, userId: string, actionUrl = '/agreements/0190a0b0-0000-7000-8000-000000000001') =>
  t.lock.run(() =>
    transaction(t.db, () =>
      t.services.notifications.notify(userId, {
        type: 'success',
        title: /*i18n*/ { id: 'Payment of {amount} received' },
        message: /*i18n*/ { id: 'Hans Hansen paid {amount}.' },
        values: { amount: { ore: 12_345 } },
        actionUrl,
      }),
    ),
  )

describe('push notifications', () => {
  it('serves one VAPID public key, made once and kept in the database; the environment’s pair when set', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const first = await t.call('GET', '/push/vapid-public-key', { token })
    expect(first.status).toBe(200)
    expect(first.json.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
    expect((await t.call('GET', '/push/vapid-public-key', { token })).json.publicKey).toBe(first.json.publicKey)
    const [row] = await t.db.select().from(pushKeys).all()
    expect(row!.publicKey).toBe(first.json.publicKey)
    // The private key is sealed, never stored as it is.
    expect(row!.privateKeySealed).not.toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect((await t.call('GET', '/push/vapid-public-key')).status).toBe(401)

    const pair = webpush.generateVAPIDKeys()
    // One key alone is a mistake the start refuses, not "make a pair".
    expect(() => parseConfig({ APP_ENV: 'test', VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither',
    )
    const configured = await testApp({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })
    const answer = await configured.call('GET', '/push/vapid-public-key', { token: await configured.login(demo.resident) })
    expect(answer.json.publicKey).toBe(pair.publicKey)
  })

  it('signs a device up once per endpoint, lists only the caller’s own, and replays a repeated Idempotency-Key', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const sub = await emulatedSubscription(t)
    const headers = { ...key(), 'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36' }
    const body = { endpoint: sub.endpoint, keys: sub.keys }
    const created = await t.call('POST', '/push/subscriptions', { token, body, headers })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ label: 'Chrome on Android', lastSuccessAt: null })
    const replay = await t.call('POST', '/push/subscriptions', { token, body, headers })
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
    // The same endpoint again under a new key updates the one row.
    expect((await t.call('POST', '/push/subscriptions', { token, body: { ...body, label: 'My phone' }, headers: key() })).json.label).toBe('My phone')
    const list = await t.call('GET', '/push/subscriptions', { token })
    expect(list.json).toHaveLength(1)
    expect(list.json[0]).not.toHaveProperty('endpoint')
    expect((await t.call('GET', '/push/subscriptions', { token: await t.login(demo.residentDa) })).json).toEqual([])

    // Another user cannot remove it (404), by id or by endpoint; the owner can.
    const other = await t.login(demo.residentDa)
    expect((await t.call('DELETE', `/push/subscriptions/${created.json.id}`, { token: other, headers: key() })).status).toBe(404)
    expect((await t.call('POST', '/push/subscriptions/unsubscribe', { token: other, body: { endpoint: sub.endpoint }, headers: key() })).status).toBe(404)
    expect((await t.call('POST', '/push/subscriptions/unsubscribe', { token, body: { endpoint: sub.endpoint }, headers: key() })).status).toBe(204)
    expect((await t.call('GET', '/push/subscriptions', { token })).json).toEqual([])
  })

  it('refuses an endpoint that is not a push service’s, and keys that are not keys, in the caller’s language', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const sub = await emulatedSubscription(t)
    const plain = await t.call('POST', '/push/subscriptions', {
      token,
      body: { endpoint: 'http://169.254.169.254/latest', keys: sub.keys },
      headers: { ...key(), 'Accept-Language': 'en' },
    })
    expect(plain.status).toBe(400)
    expect(plain.json.issues).toEqual([{ path: 'endpoint', message: 'The push address of this device is not valid' }])
    // HTTPS alone is not enough: only the push services' own hosts are called (no address inside the network).
    for (const endpoint of [
      'https://10.0.0.5/admin',
      'https://fcm.googleapis.com.evil.example/x',
      'https://fcm.googleapis.com:8443/x',
      'https://intranet.local/',
    ])
      expect((await t.call('POST', '/push/subscriptions', { token, body: { endpoint, keys: sub.keys }, headers: key() })).status, endpoint).toBe(400)
    expect(
      (await t.call('POST', '/push/subscriptions', { token, body: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc123', keys: sub.keys }, headers: key() }))
        .status,
    ).toBe(201)
    const badKeys = await t.call('POST', '/push/subscriptions', {
      token,
      body: { endpoint: sub.endpoint, keys: { p256dh: 'abc', auth: sub.keys.auth } },
      headers: { ...key(), 'Accept-Language': 'da' },
    })
    expect(badKeys.status).toBe(400)
    expect(badKeys.json.issues[0]).toMatchObject({ path: 'keys.p256dh', message: 'Push-nøglerne for denne enhed er ikke gyldige' })
  })

  it('keeps preferences: groups in a fixed order, quiet hours both or neither', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    expect((await t.call('GET', '/push/preferences', { token })).json).toEqual({ groups: [], quietFrom: null, quietTo: null })
    const set = await t.call('PUT', '/push/preferences', { token, body: { groups: ['forum', 'money'], quietFrom: '22:00', quietTo: '07:00' }, headers: key() })
    expect(set.json).toEqual({ groups: ['money', 'forum'], quietFrom: '22:00', quietTo: '07:00' })
    expect((await t.call('GET', '/push/preferences', { token })).json).toEqual(set.json)
    const half = await t.call('PUT', '/push/preferences', {
      token,
      body: { groups: [], quietFrom: '22:00', quietTo: null },
      headers: { ...key(), 'Accept-Language': 'en' },
    })
    expect(half.status).toBe(400)
    expect(half.json.issues).toEqual([{ path: 'quietTo', message: 'Quiet hours need both a start and an end' }])
    const bad = await t.call('PUT', '/push/preferences', { token, body: { groups: ['sms'], quietFrom: '25:00', quietTo: '07:00' }, headers: key() })
    expect(bad.status).toBe(400)
    expect(bad.json.issues.map((i: { path: string }) => i.path).sort()).toEqual(['groups.0', 'quietFrom'])
  })

  it('pushes a notification after its commit: only a lock-screen title in the user’s language and the path; nothing outside the chosen groups', async () => {
    const t = await testApp()
    const { sub, userId, device } = await residentDevice(t)
    await notify(t, userId)
    // Queued in the notification's transaction, not sent in it.
    expect(await received(t, sub.id)).toEqual([])
    expect(await t.db.select().from(pushOutbox).all()).toHaveLength(1)
    expect(await t.services.push.sendDue()).toEqual({ sent: 1, gone: 0, failed: 0 })
    const [message] = await received(t, sub.id)
    expect(JSON.parse(message!.payload!)).toEqual({ title: 'Payment news in Boligkasse', url: '/agreements/0190a0b0-0000-7000-8000-000000000001' })
    // No name, no amount: only the generic title and the path.
    expect(message!.payload).not.toMatch(/Hans|123|kr/)
    expect(message!.ttl).toBe(24 * 3600)
    expect(message!.subject).toBe('mailto:kontakt@boligkasse.dk')
    expect(await t.db.select().from(pushOutbox).all()).toEqual([])
    const [row] = await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, device.id)).all()
    expect(row!.lastSuccessAt).toBe(t.clock.now().toISOString())

    // A forum notification: the resident did not choose the forum; a security notice has no group.
    await notify(t, userId, '/forum/thread/0190a0b0-0000-7000-8000-000000000002')
    await t.lock.run(() =>
      transaction(t.db, () => t.services.notifications.notify(userId, { type: 'info', title: { id: 'Your password was changed' }, message: { id: 'x' } })),
    )
    expect(await t.db.select().from(pushOutbox).all()).toEqual([])
  })

  it('holds a push made in quiet hours until they end, then the job sends it', async () => {
    const t = await testApp()
    // 09:00 UTC is 10:00 in Copenhagen in November: inside 08:00–12:00.
    t.clock.set('2026-11-23T09:00:00.000Z')
    const { sub, userId } = await residentDevice(t, { groups: ['money'], quietFrom: '08:00', quietTo: '12:00' })
    await notify(t, userId)
    const [row] = await t.db.select().from(pushOutbox).all()
    expect(row!.dueAt).toBe('2026-11-23T11:00:00.000Z')
    expect(await t.services.push.sendDue()).toEqual({ sent: 0, gone: 0, failed: 0 })
    expect(await received(t, sub.id)).toEqual([])
    t.clock.set('2026-11-23T11:00:00.000Z')
    expect((await t.services.push.sendDue()).sent).toBe(1)
    expect(await received(t, sub.id)).toHaveLength(1)
  })

  it('removes a subscription its push service says is gone (410), and retries other failures with backoff', async () => {
    const t = await testApp()
    const { sub, userId, token } = await residentDevice(t)
    await t.app.request(`/push-emulator/subscriptions/${sub.id}/fail`, { method: 'POST', body: JSON.stringify({ status: 503, times: 1 }) })
    await notify(t, userId)
    expect(await t.services.push.sendDue()).toEqual({ sent: 0, gone: 0, failed: 0 })
    const [waiting] = await t.db.select().from(pushOutbox).all()
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, lastError: 'HTTP 503' })
    expect(waiting!.dueAt > t.clock.now().toISOString()).toBe(true)
    t.clock.advance(30_000)
    expect((await t.services.push.sendDue()).sent).toBe(1)

    await t.app.request(`/push-emulator/subscriptions/${sub.id}/gone`, { method: 'POST' })
    await notify(t, userId)
    expect((await t.services.push.sendDue()).gone).toBe(1)
    expect((await t.call('GET', '/push/subscriptions', { token })).json).toEqual([])
    expect(await t.db.select().from(pushOutbox).all()).toEqual([])
  })

  it('gives up after the last attempt and keeps the push as failed', async () => {
    const t = await testApp()
    const { sub, userId } = await residentDevice(t)
    await t.app.request(`/push-emulator/subscriptions/${sub.id}/fail`, { method: 'POST', body: JSON.stringify({ status: 500, times: 10 }) })
    await notify(t, userId)
    for (let i = 0; i < 6; i++) {
      await t.services.push.sendDue()
      t.clock.advance(3_600_000)
    }
    const [row] = await t.db.select().from(pushOutbox).all()
    expect(row).toMatchObject({ status: 'failed', attempts: 6 })
    expect(await t.services.push.sendDue()).toEqual({ sent: 0, gone: 0, failed: 0 })
  })

  it('end to end: a message sent to the resident reaches the test push service and decrypts to the title in their language', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    await createAgreement(t, { emailAddress: residentEn, memberName: 'Emma Hansen' }, admin)
    await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, admin)
    const en = await residentDevice(t, { groups: ['messages'], quietFrom: null, quietTo: null })
    // The Danish resident too, on a device of their own.
    const daToken = await t.login(demo.residentDa)
    const daSub = await emulatedSubscription(t)
    await t.call('POST', '/push/subscriptions', { token: daToken, body: { endpoint: daSub.endpoint, keys: daSub.keys }, headers: key() })
    await t.call('PUT', '/push/preferences', { token: daToken, body: { groups: ['messages'], quietFrom: null, quietTo: null }, headers: key() })

    const board = await t.login(demo.boardmember)
    const draft = { companyId: main, type: 'NOTICE', subject: 'Vandet lukkes tirsdag', body: 'Kære beboere', recipient: { kind: 'ALL_MEMBERS' } }
    const created = await t.call('POST', '/messages', { token: board, body: draft, headers: key() })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect((await t.call('POST', `/messages/${created.json.id}/send`, { token: board, headers: key() })).status).toBe(200)
    expect((await t.services.push.sendDue()).sent).toBe(2)

    const [toEn] = await received(t, en.sub.id)
    expect(JSON.parse(toEn!.payload!)).toEqual({ title: 'New message in Boligkasse', url: `/messages/${created.json.id}` })
    const [toDa] = await received(t, daSub.id)
    expect(JSON.parse(toDa!.payload!)).toEqual({ title: 'Ny besked i Boligkasse', url: `/messages/${created.json.id}` })
    expect(toDa!.payload).not.toContain('Vandet')
  })

  it('the erasure of a member deletes their devices, queued pushes and preferences', async () => {
    const t = await testApp()
    const m = await newMember(t)
    const token = await t.login(zq.email)
    const sub = await emulatedSubscription(t)
    expect((await t.call('POST', '/push/subscriptions', { token, body: { endpoint: sub.endpoint, keys: sub.keys }, headers: key() })).status).toBe(201)
    await t.call('PUT', '/push/preferences', { token, body: { groups: ['money'], quietFrom: null, quietTo: null }, headers: key() })
    await notify(t, m.userId)
    expect(await t.db.select().from(pushOutbox).where(eq(pushOutbox.userId, m.userId)).all()).toHaveLength(1)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    expect((await eraseOnRequest(t, demo.chairman, m.main, m.userId)).status).toBe(200)
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, m.userId)).all()).toEqual([])
    expect(await t.db.select().from(pushOutbox).where(eq(pushOutbox.userId, m.userId)).all()).toEqual([])
    expect(await t.db.select().from(pushPreferences).where(eq(pushPreferences.userId, m.userId)).all()).toEqual([])
  })

  it('the test push service refuses a request without a valid VAPID signature', async () => {
    const t = await testApp()
    const sub = await emulatedSubscription(t)
    const unsigned = await t.app.request(sub.endpoint.replace('http://localhost:3000', ''), {
      method: 'POST',
      headers: { TTL: '60', 'Content-Encoding': 'aes128gcm' },
      body: 'x',
    })
    expect(unsigned.status).toBe(401)
    // Signed by one key, claiming another.
    const a = webpush.generateVAPIDKeys()
    const b = webpush.generateVAPIDKeys()
    const headers = webpush.getVapidHeaders('http://localhost:3000', 'mailto:test@example.dk', a.publicKey, a.privateKey, 'aes128gcm')
    const forged = await t.app.request(sub.endpoint, {
      method: 'POST',
      headers: { TTL: '60', 'Content-Encoding': 'aes128gcm', Authorization: headers.Authorization.replace(a.publicKey, b.publicKey) },
      body: 'x',
    })
    expect(forged.status).toBe(401)
    expect(await forged.text()).toBe('The JWT signature does not match k')
  })

  it('never calls an endpoint that is not allowed now, and drops its device', async () => {
    const t = await testApp()
    const userId = (await t.call('GET', '/account/info', { token: await t.login(demo.resident) })).json.id as string
    const at = t.clock.now().toISOString()
    const id = v7()
    const sub = await emulatedSubscription(t)
    await t.db
      .insert(pushSubscriptions)
      .values({
        id,
        userId,
        endpoint: 'https://10.0.0.5/internal',
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        label: 'Old',
        createdAt: at,
        lastSuccessAt: null,
      })
      .run()
    await t.db
      .insert(pushOutbox)
      .values({ id: v7(), subscriptionId: id, userId, title: 'Ny besked i Boligkasse', path: '/messages', dueAt: at, createdAt: at })
      .run()
    expect(await t.services.push.sendDue()).toEqual({ sent: 0, gone: 1, failed: 0 })
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).all()).toEqual([])
  })

  it('keeps at most ten devices a person, the oldest making room', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const sub = await emulatedSubscription(t)
    for (let i = 0; i < MAX_DEVICES + 2; i++) {
      const endpoint = `https://fcm.googleapis.com/fcm/send/device-${i}`
      expect((await t.call('POST', '/push/subscriptions', { token, body: { endpoint, keys: sub.keys }, headers: key() })).status).toBe(201)
      t.clock.advance(1000)
    }
    const list = await t.call('GET', '/push/subscriptions', { token })
    expect(list.json).toHaveLength(MAX_DEVICES)
  })
})

describe('what a push may point at', () => {
  it('opens only a path of the app', () => {
    expect(safePath('/messages/1?x=1#y')).toBe('/messages/1?x=1#y')
    for (const url of ['//evil.example/x', '/\\evil.example', '/\t/evil.example', 'https://evil.example/', 'javascript:alert(1)', null])
      expect(safePath(url), String(url)).toBe('/')
  })

  it('takes the emulator only under its own path, as written', () => {
    const base = 'http://localhost:3000/push-emulator/'
    expect(isUnder('http://localhost:3000/push-emulator/push/abc', base)).toBe(true)
    expect(isUnder('http://localhost:3000/push-emulator/../api/agreement', base)).toBe(false)
    expect(isUnder('http://localhost:3000/push-emulator/%2e%2e/api', base)).toBe(false)
    expect(isUnder('http://localhost:3000.evil.example/push-emulator/push/abc', base)).toBe(false)
  })
})
