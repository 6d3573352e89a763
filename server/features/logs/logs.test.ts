import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { eq } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { systemLogs } from '../../db/schema/platform'
import { users } from '../../db/schema/users'
import { createLogsService, systemLogSink } from './logs.service'

describe('system logs', () => {
  it('records client reports from any signed-in user, with the level upper-cased', async () => {
    const t = await testApp()
    const resident = await t.login(demo.resident)
    const res = await t.call('POST', '/logger', {
      token: resident,
      body: { level: 'error', message: 'TypeError: x is undefined', context: { route: '/agreements' } },
    })
    expect(res.status).toBe(204)
    const admin = await t.login(demo.superadmin)
    const list = await t.call('GET', '/logger', { token: admin })
    expect(list.json[0]).toMatchObject({ level: 'ERROR', source: 'client', message: 'TypeError: x is undefined', context: { route: '/agreements' } })
  })

  it('needs a signed-in user to report and caps the message length', async () => {
    const t = await testApp()
    expect((await t.call('POST', '/logger', { body: { level: 'ERROR', message: 'x' } })).status).toBe(401)
    const token = await t.login(demo.resident)
    expect((await t.call('POST', '/logger', { token, body: { level: 'ERROR', message: 'x'.repeat(2001) } })).status).toBe(400)
    expect((await t.call('POST', '/logger', { token, body: { level: 'LOUD', message: 'x' } })).status).toBe(400)
  })

  it('shows the log to the super admin only, newest first, with search and paging', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    for (let i = 1; i <= 60; i++) {
      t.clock.advance(1000)
      await t.call('POST', '/logger', { token, body: { level: 'WARN', message: `warning ${i}` } })
    }
    expect((await t.call('GET', '/logger', { token })).status).toBe(403)
    const sa = await t.login(demo.superadmin)
    const page1 = await t.call('GET', '/logger?skip=0&take=50', { token: sa })
    expect(page1.json).toHaveLength(50)
    expect(page1.json[0].message).toBe('warning 60')
    const page2 = await t.call('GET', '/logger?skip=50&take=50', { token: sa })
    expect(page2.json).toHaveLength(10)
    const found = await t.call('GET', '/logger?search=warning%2042', { token: sa })
    expect(found.json.map((e: { message: string }) => e.message)).toEqual(['warning 42'])
  })

  it('rate limits client reports per user', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const statuses: number[] = []
    for (let i = 0; i < 62; i++) statuses.push((await t.call('POST', '/logger', { token, body: { level: 'INFO', message: 'x' } })).status)
    expect(statuses.filter((s) => s === 429)).toHaveLength(2)
  })
})

describe('the system log sink', () => {
  it('keeps the entry of a write that fails and rolls back, on either engine', async () => {
    const t = await testApp()
    const logs = createLogsService({ db: t.db, clock: t.clock })
    const sink = systemLogSink(logs, t.lock)
    const failing = t.lock.run(() =>
      transaction(t.db, async () => {
        // A request's own write, then its error logged (as the error handler does), then the rollback.
        await t.db.update(users).set({ fullName: 'Rolled back' }).where(eq(users.emailAddress, demo.admin)).run()
        sink('ERROR', 'sink-test: the write failed', { at: 'test' })
        throw new Error('the write failed')
      }),
    )
    await expect(failing).rejects.toThrow('the write failed')
    // The sink writes after the transaction (SQLite: behind the write lock) or beside it on a
    // connection of its own (PostgreSQL), without being awaited: wait for its entry to be there.
    const entries = async () => (await t.db.select().from(systemLogs).all()).filter((e) => e.message === 'sink-test: the write failed')
    await expect.poll(async () => (await entries()).length).toBe(1)
    expect((await t.db.select().from(users).where(eq(users.emailAddress, demo.admin)).get())!.fullName).not.toBe('Rolled back')
  })
})
