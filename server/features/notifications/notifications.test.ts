import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { DEMO_PASSWORD, demo, testApp, type TestApp } from '../../test/harness'
import { newId } from '../../lib/ids'
import { notificationsRepository } from './notifications.repository'
import { createNoticesService } from './notices'
import { idempotencyKeys } from '../../db/schema/platform'

/** The answer stored for an Idempotency-Key (on either engine). */
const storedAnswer = async (t: TestApp, key: string) =>
  await t.db.select({ body: idempotencyKeys.body }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key)).get()

async function withNotifications(t: TestApp, email: string, n: number) {
  const token = await t.login(email)
  const userId = (await t.call('GET', '/account/info', { token })).json.id
  for (let i = 1; i <= n; i++) {
    t.clock.advance(1000)
    await t.services.notifications.notify(userId, {
      type: 'info',
      title: { id: 'Notice {n}' },
      message: { id: 'Hello <b>{name}</b> <script>alert(1)</script><img src=x onerror=alert(1)>' },
      values: { n: i, name: '<i>Anders</i>' },
      actionUrl: '/agreements',
    })
  }
  return { token, userId }
}

describe('notifications API', () => {
  it("lists the user's own notifications newest first, with sanitized HTML", async () => {
    const t = await testApp()
    const { token } = await withNotifications(t, demo.admin, 2)
    const res = await t.call('GET', '/notifications', { token })
    expect(res.status).toBe(200)
    expect(res.json.map((n: { title: string }) => n.title)).toEqual(['Notice 2', 'Notice 1', 'Welcome to Boligkasse'])
    expect(res.json[0].message).toBe('Hello <b>&lt;i&gt;Anders&lt;/i&gt;</b> ')
    expect(res.json[0]).toMatchObject({ type: 'info', isRead: false, actionUrl: '/agreements', actionText: null })
  })

  it("writes the welcome in the user's language", async () => {
    const t = await testApp()
    const token = await t.login(demo.chairman)
    const res = await t.call('GET', '/notifications', { token })
    expect(res.json[0].title).toBe('Velkommen til Boligkasse')
  })

  it('counts unread, marks one and all read', async () => {
    const t = await testApp()
    const { token } = await withNotifications(t, demo.admin, 2)
    expect((await t.call('GET', '/notifications/unread-count', { token })).json).toEqual({ count: 3 })
    const [first] = (await t.call('GET', '/notifications', { token })).json
    const read = await t.call('PATCH', `/notifications/${first.id}/read`, { token })
    expect(read.json).toMatchObject({ isRead: true, version: 2 })
    const again = await t.call('PATCH', `/notifications/${first.id}/read`, { token })
    expect(again.json.version).toBe(2)
    expect((await t.call('GET', '/notifications/unread-count', { token })).json.count).toBe(2)
    expect((await t.call('PATCH', '/notifications/read-all', { token })).json).toEqual({ updated: 2 })
    expect((await t.call('GET', '/notifications/unread-count', { token })).json.count).toBe(0)
  })

  it('marking read answers the row as stored, and a retry with the same Idempotency-Key replays those bytes', async () => {
    const t = await testApp()
    const { token } = await withNotifications(t, demo.admin, 1)
    const [first] = (await t.call('GET', '/notifications', { token })).json
    const headers = { 'Idempotency-Key': 'mark-1' }
    const read = await t.call('PATCH', `/notifications/${first.id}/read`, { token, headers })
    const stored = await storedAnswer(t, 'mark-1')
    expect(stored?.body).toBe(JSON.stringify(read.json))
    expect(read.headers.get('Cache-Control')).toBe('no-store')
    expect(read.json).toEqual({ ...first, isRead: true, version: first.version + 1 })
    expect((await t.call('GET', '/notifications', { token })).json[0]).toEqual(read.json)
    const retry = await t.call('PATCH', `/notifications/${first.id}/read`, { token, headers })
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    expect(retry.json).toEqual(read.json)
    // A refusal is stored and replayed too (its JSON made by the error handler).
    const missing = await t.call('PATCH', `/notifications/${newId()}/read`, { token, headers: { 'Idempotency-Key': 'mark-2' } })
    expect(missing.status).toBe(404)
    const storedMissing = await storedAnswer(t, 'mark-2')
    expect(storedMissing?.body).toBe(JSON.stringify(missing.json))
  })

  it("deletes, and answers 404 for another user's or a missing notification", async () => {
    const t = await testApp()
    const { token } = await withNotifications(t, demo.admin, 1)
    const other = await t.login(demo.chairman)
    const [mine] = (await t.call('GET', '/notifications', { token })).json
    expect((await t.call('PATCH', `/notifications/${mine.id}/read`, { token: other })).status).toBe(404)
    expect((await t.call('DELETE', `/notifications/${mine.id}`, { token: other })).status).toBe(404)
    expect((await t.call('DELETE', `/notifications/${mine.id}`, { token })).status).toBe(204)
    expect((await t.call('DELETE', `/notifications/${mine.id}`, { token })).status).toBe(404)
    expect((await t.call('DELETE', `/notifications/${newId()}`, { token })).status).toBe(404)
    expect((await t.call('GET', '/notifications', { token: other })).json).toHaveLength(1)
  })

  it('needs a signed-in user', async () => {
    const t = await testApp()
    expect((await t.call('GET', '/notifications')).status).toBe(401)
    expect((await t.call('GET', '/notifications/unread-count')).status).toBe(401)
    expect((await t.call('PATCH', '/notifications/read-all')).status).toBe(401)
  })

  it('tells the user when a sign-in method is added or the password changes', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', identifier: 'Phone', currentPassword: DEMO_PASSWORD } })
    const list = (await t.call('GET', '/notifications', { token })).json
    expect(list[0]).toMatchObject({ title: 'New sign-in method added', type: 'warning', actionUrl: '/user' })
    expect(list[0].message).toContain('<strong>Phone</strong>')
  })

  it('reads in both languages: a notification made for an English user has its Danish text, values kept as text', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', identifier: '<b>Bo</b> & Co', currentPassword: DEMO_PASSWORD } })
    const [added, welcome] = (await t.call('GET', '/notifications', { token })).json
    expect(added).toMatchObject({ title: 'New sign-in method added', actionText: 'Open profile' })
    expect(added.localized.en).toEqual({ title: added.title, message: added.message, actionText: 'Open profile' })
    expect(added.localized.da).toMatchObject({ title: 'Ny loginmetode tilføjet', actionText: 'Åbn profil' })
    expect(added.localized.da.message).toContain('<strong>&lt;b&gt;Bo&lt;/b&gt; &amp; Co</strong>')
    expect(welcome.localized.da).toEqual({
      title: 'Velkommen til Boligkasse',
      message: 'Her følger du dine betalinger, fakturaer og beskeder fra <strong>Andelsboligforeningen Solgården</strong>.',
      actionText: 'Åbn profil',
    })
  })

  it('puts a name with markup into a title as plain text, into the message escaped', async () => {
    const t = await testApp()
    const { token } = await withNotifications(t, demo.admin, 1)
    const [n] = (await t.call('GET', '/notifications', { token })).json
    expect(n.localized.da.title).toBe('Notice 1')
    expect(n.localized.da.message).toBe('Hello <b>&lt;i&gt;Anders&lt;/i&gt;</b> ')
  })

  it("after the user switches to Danish, the fields in the user's language read in Danish", async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    expect((await t.call('GET', '/notifications', { token })).json[0].title).toBe('Welcome to Boligkasse')
    expect((await t.call('PATCH', '/account/profile/language', { token, body: { value: 'DA' } })).status).toBe(200)
    const [welcome] = (await t.call('GET', '/notifications', { token })).json
    expect(welcome).toMatchObject({ title: 'Velkommen til Boligkasse', actionText: 'Åbn profil' })
    expect(welcome.message).toContain('Her følger du')
    expect((await t.call('PATCH', `/notifications/${welcome.id}/read`, { token })).json.title).toBe('Velkommen til Boligkasse')
  })

  it('a notification stored before its content was kept reads as it was written', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const userId = (await t.call('GET', '/account/info', { token })).json.id
    t.clock.advance(1000)
    const id = newId()
    await notificationsRepository.insert(t.db, {
      id,
      userId,
      type: 'info',
      title: 'Old news',
      message: 'Written <b>before</b>',
      actionUrl: null,
      actionText: null,
      createdAt: t.clock.now().toISOString(),
    })
    const [old] = (await t.call('GET', '/notifications', { token })).json
    expect(old).toMatchObject({ id, title: 'Old news', message: 'Written <b>before</b>', actionText: null, localized: null })
  })

  it("writes an amount as kroner the way each language does; the e-mail stays in the user's language", async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const userId = (await t.call('GET', '/account/info', { token })).json.id
    const notices = createNoticesService({
      db: t.db,
      clock: t.clock,
      publicUrl: 'https://boligkasse.test',
      users: t.services.users,
      notifications: t.services.notifications,
    })
    t.clock.advance(1000)
    await notices.tell(userId, {
      type: 'info',
      title: { id: 'An agreement awaits your acceptance' },
      message: { id: '{association} has created agreement {externalId} for {amount}. Open it to accept it with Vipps MobilePay or to reject it.' },
      values: { association: 'A & B', externalId: '1009', amount: { ore: 123_450 } },
      actionUrl: '/agreements',
      actionText: { id: 'Open agreement' },
    })
    const [n] = (await t.call('GET', '/notifications', { token })).json
    expect(n.localized.en.message).toMatch(/for DKK\s1,234\.50\./)
    expect(n.localized.da.message).toMatch(/ 1\.234,50\skr\. Åbn/)
    expect(n.localized.da.message).toContain('A &amp; B')
    expect(n.localized.da.title).not.toBe('An agreement awaits your acceptance')
    const mail = (await t.mails()).at(-1)!
    expect(mail.subject).toBe('An agreement awaits your acceptance')
    expect(mail.text).toMatch(/DKK\s1,234\.50/)
  })
})
