import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { changeLog } from '../../db/schema/sync'
import { invoices } from '../../db/schema/invoices'
import { users } from '../../db/schema/users'
import { engineOf } from '../../db/client'
import { DEMO_PASSWORD, demo, testApp } from '../../test/harness'
import { ERASED_NAME } from '../../../shared/contract/personal-data'
import { asText, textColumns } from './table-columns'
import { eraseOnRequest, memberWithDataEverywhere, zq } from './test-helpers'

/** Voucher columns the Bookkeeping Act keeps (docs/PRIVACY.md): the only places the name may stay. */
const kept = new Set([
  'invoices.consumer_name',
  'invoices.consumer_address',
  'invoice_lines.description',
  // Who closed a month of the books (a staff member): never changes (decision 0067). This member closes none.
  'bookkeeping_closed_months.closed_by_name',
])

describe('erasing a member leaves no personal data outside the kept vouchers', () => {
  it('scans every text column of every table, listed from the database, for each identifier', async () => {
    const t = await testApp()
    const m = await memberWithDataEverywhere(t)
    const columns = await textColumns(t.db)
    // The listing is the database's own: it has the tables of every feature (a new one is scanned without editing this test).
    expect(columns.length).toBeGreaterThan(200)
    for (const table of ['users', 'invoices', 'messages', 'forum_posts', 'mail_outbox', 'idempotency_keys', 'system_logs', 'notifications', 'loans'])
      expect(columns.some((c) => c.table === table)).toBe(true)
    const identifiers = [zq.name, zq.email, zq.mobile, zq.mobileKey, zq.vippsSubject]
    const hits = async () => {
      const found: string[] = []
      for (const c of columns)
        for (const id of identifiers) {
          const position = engineOf(t.db) ? `strpos(${asText(c)}, ` : `instr(${asText(c)}, `
          const [row] = await t.db.values<[number]>(sql`SELECT count(*) FROM ${sql.raw(`"${c.table}"`)} WHERE ${sql.raw(position)}${id}) > 0`)
          if (Number(row![0]) > 0) found.push(`${c.table}.${c.column} ∋ ${id}`)
        }
      return found
    }
    // Before: the member's data is all over the place (the scan finds it, so it can fail).
    const before = await hits()
    for (const table of [
      'users',
      'auth_methods',
      'invoices',
      'messages',
      'message_recipients',
      'forum_posts',
      'forum_threads',
      'market_listings',
      'lending_items',
      'loans',
      'assembly_proposals',
      'mail_outbox',
      'idempotency_keys',
      'system_logs',
      'notifications',
    ])
      expect(
        before.some((h) => h.startsWith(`${table}.`)),
        `${table} before the erase: ${before.join('; ')}`,
      ).toBe(true)

    const seqBefore = (await t.db
      .select({ n: sql<number>`max(${changeLog.seq})` })
      .from(changeLog)
      .get())!.n
    const res = await eraseOnRequest(t, demo.chairman, m.main, m.userId)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ userId: m.userId, companyId: m.main, status: 'APPROVED', requestedOn: '2026-11-20' })

    const after = await hits()
    expect(after.filter((h) => !kept.has(h.split(' ∋ ')[0]!))).toEqual([])
    // The vouchers keep the name (and only the name), and lose e-mail and phone.
    expect(after.map((h) => h.split(' ∋ ')[1])).not.toContain(zq.email)
    const vouchers = await t.db.select().from(invoices).where(eq(invoices.memberUserId, m.userId)).all()
    expect(vouchers.map((v) => v.kind).sort()).toEqual(['CREDIT_NOTE', 'INVOICE'])
    for (const v of vouchers) expect(v).toMatchObject({ consumerName: zq.name, consumerEmailAddress: '', consumerPhoneNumber: null })
    expect(vouchers.every((v) => v.consumerAddress)).toBe(true)
    expect((await t.db.select().from(users).where(eq(users.id, m.userId)).get())!.fullName).toBe(ERASED_NAME)

    // The offline copies follow: the changed rows are in the change log for the association and its residents.
    const logged = await t.db
      .select({ entity: changeLog.entity, op: changeLog.op })
      .from(changeLog)
      .where(sql`${changeLog.seq} > ${seqBefore}`)
      .all()
    const entities = new Set(logged.map((l) => `${l.entity}:${l.op}`))
    for (const e of [
      'agreement:upsert',
      'invoice:upsert',
      'message:upsert',
      'forumThread:upsert',
      'forumPost:upsert',
      'listing:delete',
      'loan:upsert',
      'proposal:upsert',
      'notification:delete',
    ])
      expect(entities, e).toContain(e)

    // They can no longer sign in, and their sessions are gone.
    expect((await t.call('POST', '/auth/login', { body: { type: 'email', email: zq.email, password: DEMO_PASSWORD } })).status).toBe(401)
    expect((await t.call('GET', '/account/info', { token: m.member })).status).toBe(401)
    // The neighbour's copy of the forum reads the erased name.
    const posts = await t.call('GET', `/forum/threads?companyId=${m.main}`, { token: m.neighbour })
    expect(JSON.stringify(posts.json)).not.toContain(zq.name)
  })
})
