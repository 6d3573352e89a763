import { companies } from '../db/schema/companies'
import { onPostgres } from '../test/template-db'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { connectionOf, inMemoryDatabase, openDatabase, type SqliteDatabase_ } from '../db/client'
import { inReadScope } from '../db/read-scope'
import { users } from '../db/schema/users'
import { WriteLock } from '../lib/write-lock'
import { documentedRoutes } from './route'
import { demo, testApp } from '../test/harness'
import Database from 'better-sqlite3'
import { v7 } from 'uuid'

/**
 * Reads on their own connection (decision 0049), on a real file database: the test template's
 * image written to a temporary file and opened as `npm start` opens DATABASE_PATH.
 */
const folders: string[] = []
const opened: SqliteDatabase_[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

async function fileApp() {
  let file: SqliteDatabase_ | undefined
  const t = await testApp({}, ({ database }) => {
    const folder = mkdtempSync(join(tmpdir(), 'bk-reads-'))
    folders.push(folder)
    const path = join(folder, 'boligkasse.db')
    writeFileSync(path, database.sqlite!.serialize())
    file = openDatabase(path)
    opened.push(file)
    return { database: file }
  })
  return { ...t, file: file! }
}

/**
 * The answer to `call`, or 'waiting' when it has not come within `ms`: a read stuck behind the
 * write lock never answers while the lock is held, so the default is a guard against that hang
 * (under the test timeout, to say what hung), not a speed limit. A short `ms` only where 'waiting'
 * is the expected answer.
 */
const within = <T>(call: Promise<T>, ms = 20_000) => Promise.race([call, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms).unref())])

/**
 * Holds the write lock with `BEGIN IMMEDIATE` open, as a write request does while it awaits, runs
 * `write` in that transaction and waits for `release()`; then rolls back or commits.
 */
function holdWrite(t: { lock: WriteLock; file: SqliteDatabase_ }, write: (sqlite: Database.Database) => void, end: 'COMMIT' | 'ROLLBACK') {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let started!: () => void
  const begun = new Promise<void>((resolve) => (started = resolve))
  const done = t.lock.run(async () => {
    t.file.sqlite.exec('BEGIN IMMEDIATE')
    write(t.file.sqlite)
    started()
    await released
    t.file.sqlite.exec(end)
  })
  return { begun, release, done }
}

// SQLite's own machinery: on PostgreSQL every connection reads committed rows only.
describe.skipIf(onPostgres)('reads on their own connection (file database)', () => {
  it('answers a GET while a write holds the lock with its transaction open, without the uncommitted row', async () => {
    const t = await fileApp()
    expect(t.file.reader).toBeDefined()
    const token = await t.login(demo.admin)
    const write = holdWrite(
      t,
      (sqlite) => sqlite.prepare('UPDATE users SET full_name = ? WHERE email_address = ?').run('Not yet committed', demo.admin),
      'COMMIT',
    )
    await write.begun

    const during = await within(t.call('GET', '/account/info', { token }))
    expect(during).not.toBe('waiting')
    if (during === 'waiting') return
    expect(during.status).toBe(200)
    expect(during.json.fullName).toBe('Anders Nielsen')

    write.release()
    await write.done
    expect((await t.call('GET', '/account/info', { token })).json.fullName).toBe('Not yet committed')
  })

  it('answers /api/health while a slow write holds the lock', async () => {
    const t = await fileApp()
    const write = holdWrite(t, () => {}, 'ROLLBACK')
    await write.begun
    const health = await within(t.call('GET', '/health'))
    write.release()
    await write.done
    expect(health).not.toBe('waiting')
    if (health === 'waiting') return
    expect(health.status).toBe(200)
    expect(health.json).toMatchObject({ status: 'ok', db: 'ok' })
  })

  it('gives a sync cursor no change-log seq that a rollback hands out again', async () => {
    const t = await fileApp()
    const token = await t.login(demo.resident)
    let page = await t.call('GET', '/sync', { token })
    while (page.json.hasMore) page = await t.call('GET', `/sync?cursor=${page.json.cursor}`, { token })
    const userId = t.file.sqlite.prepare<[string], { id: string }>('SELECT id FROM users WHERE email_address = ?').get(demo.resident)!.id
    const write = holdWrite(
      t,
      (sqlite) =>
        sqlite
          .prepare(
            "INSERT INTO change_log (entity, entity_id, op, company_id, user_id, created_at) VALUES ('notification', 'n-rolled-back', 'delete', NULL, ?, ?)",
          )
          .run(userId, t.clock.now().toISOString()),
      'ROLLBACK',
    )
    await write.begun
    const during = await within(t.call('GET', `/sync?cursor=${page.json.cursor}`, { token }))
    write.release()
    await write.done
    expect(during).not.toBe('waiting')
    if (during === 'waiting') return
    expect(during.json.changes).toEqual([])
    expect(during.json.cursor).toBe(page.json.cursor)
  })

  it('runs the GET forms of actions that change data as writes', async () => {
    const t = await fileApp()
    const sa = await t.login(demo.superadmin)
    const { id } = (
      await t.call('POST', '/company', {
        token: sa,
        body: { name: 'Andelsboligforeningen Birkely', acronym: 'AB Birkely', cvr: '35954716', unionType: 'CONDO' },
      })
    ).json
    expect((await t.call('POST', `/company/${id}/activate`, { token: sa })).status).toBe(200)
    const suspended = await t.call('GET', `/company/${id}/suspend`, { token: sa })
    expect(suspended.status).toBe(200)
    expect(suspended.json.status).toBe('SUSPENDED')
  })

  it('knows the GET routes that change data or call out from their rules: the life cycle, rejecting and accepting an agreement, Vipps sign-in', async () => {
    const t = await testApp()
    const unsafe = documentedRoutes(t.app)
      .filter((r) => r.method === 'GET' && r.rules?.data !== 'read')
      .map((r) => `${r.path} ${r.rules?.data}`)
      .sort()
    expect(unsafe).toEqual(
      [
        ...['activate', 'deactivate', 'delete', 'suspend'].map((action) => `/api/company/{id}/${action} write`),
        '/api/agreement/{id}/accept own-steps',
        '/api/agreement/{id}/reject write',
        '/api/auth/vipps own-steps',
        '/api/auth/vipps/callback own-steps',
        // A stream open for minutes holds no read scope (decision 0086).
        '/api/live own-steps',
        // The VAPID key pair is made on its first use, under the lock for that step (decision 0088).
        '/api/push/vapid-public-key own-steps',
      ].sort(),
    )
    expect((await t.call('HEAD', `/company/${v7()}/suspend`, { token: await t.login(demo.superadmin) })).status).toBe(405)
  })

  it('signs a request in from committed sessions only, and slides the expiry under the lock, not inside an open write', async () => {
    const t = await fileApp()
    const token = await t.login(demo.admin)
    const sessionOf = () =>
      t.file.sqlite
        .prepare<[], { last_used_at: string; revoked_at: string | null }>('SELECT last_used_at, revoked_at FROM sessions ORDER BY created_at DESC LIMIT 1')
        .get()!
    const before = sessionOf().last_used_at
    // A sign-out in progress that will roll back: the token still signs in meanwhile and after.
    const write = holdWrite(t, (sqlite) => sqlite.prepare('UPDATE sessions SET revoked_at = created_at').run(), 'ROLLBACK')
    await write.begun
    t.clock.advance(2 * 3600 * 1000)
    const during = await within(t.call('GET', '/account/info', { token }))
    expect(during).not.toBe('waiting')
    if (during === 'waiting') return
    expect(during.status).toBe(200)
    // The sliding expiry waits for the lock: it is not part of the transaction that rolls back.
    expect(sessionOf().last_used_at).toBe(before)
    write.release()
    await write.done
    await t.lock.run(() => undefined)
    expect(sessionOf().revoked_at).toBeNull()
    expect(sessionOf().last_used_at > before).toBe(true)
  })

  it('sends the handle to the reader inside a read scope, and to the writer under the write lock', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bk-reads-'))
    folders.push(folder)
    const database = openDatabase(join(folder, 'x.db'))
    opened.push(database)
    const lock = new WriteLock()
    expect(connectionOf(database.db)).toBe(database.sqlite)
    expect(inReadScope(() => connectionOf(database.db))).toBe(database.reader)
    expect(await inReadScope(() => lock.run(() => connectionOf(database.db)))).toBe(database.sqlite)
    expect(() => inReadScope(() => database.db.update(users).set({ fullName: 'x' }).where(eq(users.id, 'none')).run())).toThrow(/readonly/)
  })
})

describe('HEAD on the GET forms of actions', () => {
  it('is refused with 405 and runs nothing: no agreement accepted at Vipps, no company suspended, no write lock held', async () => {
    const t = await testApp()
    const token = await t.login(demo.superadmin)
    const company = (await t.db.select({ id: companies.id }).from(companies).where(eq(companies.status, 'ACTIVE')).get())!
    for (const path of [`/agreement/${v7()}/accept`, `/company/${company.id}/suspend`]) {
      const res = await within(t.call('HEAD', path, { token }))
      expect(res).not.toBe('waiting')
      if (res === 'waiting') return
      expect(res.status).toBe(405)
    }
    expect((await t.db.select({ status: companies.status }).from(companies).where(eq(companies.id, company.id)).get())!.status).toBe('ACTIVE')
    const write = await within(t.call('PATCH', '/notifications/read-all', { token }))
    expect(write).not.toBe('waiting')
  })
})

describe.skipIf(onPostgres)('reads on a :memory: database', () => {
  it('refuse a write inside a read scope, as the read-only connection would, and allow it under the write lock', async () => {
    const database = inMemoryDatabase(new Database(':memory:'))
    opened.push(database)
    database.sqlite.exec('CREATE TABLE t (a INTEGER)')
    const insert = () => connectionOf(database.db).prepare('INSERT INTO t VALUES (1)').run()
    expect(() => inReadScope(insert)).toThrow(/must not write/)
    expect(inReadScope(() => connectionOf(database.db).prepare('SELECT count(*) AS n FROM t').get())).toEqual({ n: 0 })
    await inReadScope(() => new WriteLock().run(insert))
    expect(database.sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 })
  })

  it('wait for the write lock, so a GET never sees a write in progress', async () => {
    const t = await testApp()
    expect(t.database.reader).toBeUndefined()
    const token = await t.login(demo.admin)
    let release!: () => void
    const held = t.lock.run(() => new Promise<void>((resolve) => (release = resolve)))
    const read = t.call('GET', '/account/info', { token })
    expect(await within(read, 200)).toBe('waiting')
    release()
    await held
    expect((await read).status).toBe(200)
  })
})
