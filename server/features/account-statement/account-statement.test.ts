/**
 * Account statements (decision 0068) through the API: a resident's own year with its
 * opening balance, a failed charge, the retry's payment and a refund; staff per member; who gets 404;
 * bad input in the caller's language; and the reads stay two queries however long the history.
 */
import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { DA, EN, issue } from '../../test/requests'
import type { AccountStatementResponse } from '../../../shared/contract/account-statement'
import { statementsRun } from '../../test/paging'
import { transaction } from '../../db/client'
import { historyWriter } from '../billing/charge-history'
import { statementFixture, userIdOf } from './test-helpers'
import { eq } from 'drizzle-orm'
import { agreements } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { newId } from '../../lib/ids'

const lines = (s: AccountStatementResponse) => s.rows.map((r) => `${r.date} ${r.kind} ${r.documentNumber ?? '-'} ${r.debit - r.credit} ${r.balance}`)

describe('account statement (kontokort)', () => {
  it("answers the resident's year: opening balance, invoice, failed charge, the retry's payment, the refund", async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const resident = await t.login(demo.resident)
    const res = await t.call('GET', `/account-statement?companyId=${f.main}&year=2026`, { token: resident })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const s = res.json as AccountStatementResponse
    const [old, inv, note] = [f.failedOld, f.invoice, f.creditNote].map((id) => s.rows.find((r) => r.documentId === id)?.documentNumber ?? '?')
    expect(lines(s)).toEqual([
      '2026-01-01 OPENING_BALANCE - 0 50000',
      `2026-03-01 INVOICE ${inv} 100000 150000`,
      `2026-03-02 CHARGE_FAILED ${inv} 0 150000`,
      `2026-03-09 PAYMENT ${inv} -100000 50000`,
      `2026-04-01 CREDIT_NOTE ${note} -30000 20000`,
      `2026-04-03 REFUND_PAID ${note} 30000 50000`,
    ])
    expect(s.rows[2]!.reason).toBe('insufficient_funds')
    expect(s.rows[4]!.creditedNumber).toBe(inv)
    expect(old).toBe('?')
    expect({ opening: s.openingBalance, closing: s.closingBalance, debit: s.totalDebit, credit: s.totalCredit }).toEqual({
      opening: 50_000,
      closing: 50_000,
      debit: 130_000,
      credit: 130_000,
    })
    expect(s.member.userId).toBe(f.residentId)

    // 2025: the old invoice and its failed charge; the year before has nothing.
    const y2025 = (await t.call('GET', `/account-statement?companyId=${f.main}&year=2025`, { token: resident })).json as AccountStatementResponse
    expect(lines(y2025)).toEqual([
      '2025-01-01 OPENING_BALANCE - 0 0',
      `2025-12-01 INVOICE ${y2025.rows[1]!.documentNumber} 50000 50000`,
      `2025-12-02 CHARGE_FAILED ${y2025.rows[1]!.documentNumber} 0 50000`,
    ])

    // Without a year: this year (the test clock's).
    const now = (await t.call('GET', `/account-statement?companyId=${f.main}`, { token: resident })).json as AccountStatementResponse
    expect(now.year).toBe(Number(t.clock.now().toISOString().slice(0, 4)))
  })

  it("gives admin staff a member's statement (a board member hears why not); another association, a stranger and a neighbour's view are refused", async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const path = (company: string, user: string) => `/companies/${company}/members/${user}/account-statement?year=2026`
    const own = (await t.call('GET', `/account-statement?companyId=${f.main}&year=2026`, { token: await t.login(demo.resident) })).json
    for (const staff of [demo.admin, demo.superadmin]) {
      const res = await t.call('GET', path(f.main, f.residentId), { token: await t.login(staff) })
      expect(res.status, staff).toBe(200)
      expect(res.json).toEqual(own)
    }
    // A board member knows the member but does not read their statement (docs/API.md "What each role reads").
    const board = await t.call('GET', path(f.main, f.residentId), { token: await t.login(demo.boardmember), headers: DA })
    expect([board.status, board.json.message]).toEqual([403, 'Kun foreningens formand, administrator og bogholder kan se et medlems kontoudtog.'])
    // Another association's administrator: 404, the member is never revealed.
    expect((await t.call('GET', path(f.main, f.residentId), { token: await t.login(demo.otherAdmin) })).status).toBe(404)
    // A user without an account in the association (the other association's administrator): 404.
    const admin = await t.login(demo.admin)
    const stranger = await t.call('GET', path(f.main, await userIdOf(t, demo.otherAdmin)), { token: admin })
    expect(stranger.status).toBe(404)
    expect(stranger.json.message).toBe('This person has no account with the association.')
    // The member in another association than theirs: 404.
    expect((await t.call('GET', path(f.second, f.residentId), { token: admin })).status).toBe(404)
    // A resident asking for another member's statement: 404; their own association only.
    const neighbour = await t.login(demo.residentDa)
    expect((await t.call('GET', path(f.main, f.residentId), { token: neighbour })).status).toBe(404)
    expect((await t.call('GET', `/account-statement?companyId=${f.second}`, { token: await t.login(demo.resident) })).status).toBe(404)
    expect((await t.call('GET', `/account-statement?companyId=${f.main}`)).status).toBe(401)
  })

  it('a member of two associations sees each one’s statement separately', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const resident = await t.login(demo.resident)
    const own = async (company: string) =>
      (await t.call('GET', `/account-statement?companyId=${company}&year=2026`, { token: resident })).json as AccountStatementResponse
    const mainBefore = await own(f.main)
    const row = (await t.db.select().from(agreements).where(eq(agreements.id, f.agreementId)).get())!
    const elsewhere = { ...row, id: newId(), companyId: f.second, externalSeq: 90_001, vippsAgreementId: null }
    await t.db.insert(agreements).values(elsewhere).run()
    await transaction(t.database.db, async () =>
      historyWriter(t.database.db, t.clock.now().toISOString()).charge({
        agreementId: elsewhere.id,
        paymentDate: '2026-05-01',
        lines: [{ type: 'FEE', amount: 77_700 }],
        status: 'FAILED',
        kind: 'ONE_TIME',
      }),
    )
    const second = await own(f.second)
    expect(second.companyId).toBe(f.second)
    // Its charge failed (no failure day written: the day it was last touched).
    expect(second.rows.map((r) => `${r.kind} ${r.debit - r.credit} ${r.balance}`)).toEqual([
      'OPENING_BALANCE 0 0',
      'INVOICE 77700 77700',
      'CHARGE_FAILED 0 77700',
    ])
    expect(await own(f.main)).toEqual(mainBefore)
    // The second association's staff see only theirs; the first's staff do not see the second's.
    const path = `/companies/${f.second}/members/${f.residentId}/account-statement?year=2026`
    expect((await t.call('GET', path, { token: await t.login(demo.otherAdmin) })).json).toEqual(second)
    expect((await t.call('GET', path, { token: await t.login(demo.admin) })).status).toBe(404)
  })

  it('a member who moved out (agreement ended) still reads their history, and so do staff', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const resident = await t.login(demo.resident)
    const path = `/account-statement?companyId=${f.main}&year=2026`
    const before = (await t.call('GET', path, { token: resident })).json as AccountStatementResponse
    await t.db.update(agreements).set({ status: 'CLOSED', terminationDate: '2026-06-30' }).where(eq(agreements.id, f.agreementId)).run()
    const after = await t.call('GET', path, { token: resident })
    expect(after.status).toBe(200)
    expect(after.json).toEqual(before)
    expect(lines(after.json as AccountStatementResponse)).toHaveLength(6)
    const staff = await t.call('GET', `/companies/${f.main}/members/${f.residentId}/account-statement?year=2026`, { token: await t.login(demo.admin) })
    expect(staff.json).toEqual(before)
  })

  it('a write-off of an overdue invoice whose charge was still open credits it once (billing cancels the charge too)', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const today = t.clock.now().toISOString().slice(0, 10)
    const due = new Date(t.clock.now().getTime() - 10 * 86_400_000).toISOString().slice(0, 10)
    const year = Number(today.slice(0, 4))
    const resident = await t.login(demo.resident)
    const path = `/account-statement?companyId=${f.main}&year=${year}`
    const before = ((await t.call('GET', path, { token: resident })).json as AccountStatementResponse).closingBalance
    const overdue = await transaction(t.database.db, async () =>
      historyWriter(t.database.db, t.clock.now().toISOString()).charge({
        agreementId: f.agreementId,
        paymentDate: due,
        lines: [{ type: 'FEE', amount: 40_000 }],
        status: 'CREATED',
        kind: 'ONE_TIME',
      }),
    )
    const off = await t.call('POST', `/invoice/${overdue.invoiceId}/writeOff`, { token: await t.login(demo.admin), body: { note: 'Dødsbo' } })
    expect(off.status, JSON.stringify(off.json)).toBe(201)
    const s = (await t.call('GET', path, { token: resident })).json as AccountStatementResponse
    const mine = s.rows.filter((r) => r.documentId === overdue.invoiceId || r.documentId === off.json.id).map((r) => `${r.kind} ${r.debit - r.credit}`)
    expect(mine).toEqual(['INVOICE 40000', 'WRITE_OFF -40000'])
    expect(s.closingBalance).toBe(before)
  })

  it('refuses bad input with a clear message in the user’s language', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const resident = await t.login(demo.resident)
    const cases: [Record<string, string>, string, string, string][] = [
      [EN, `/account-statement?companyId=${f.main}&year=1999`, 'year', 'Please choose a year between 2000 and 2100'],
      [DA, `/account-statement?companyId=${f.main}&year=abc`, 'year', 'Vælg venligst et år mellem 2000 og 2100'],
      [EN, `/account-statement?companyId=nope`, 'companyId', 'Please choose one of the options'],
      [DA, `/account-statement`, 'companyId', 'Vælg en af mulighederne'],
    ]
    const asAdmin: typeof cases = [
      [DA, `/companies/${f.main}/members/${f.residentId}/account-statement?year=2101`, 'year', 'Vælg venligst et år mellem 2000 og 2100'],
    ]
    const admin = await t.login(demo.admin)
    for (const [[headers, path, field, text], token] of [...cases.map((c) => [c, resident] as const), ...asAdmin.map((c) => [c, admin] as const)]) {
      const res = await t.call('GET', path, { token, headers })
      expect(res.status, `${path} ${JSON.stringify(res.json)}`).toBe(400)
      expect(issue(res, field) ?? res.json.message, path).toBe(text)
    }
    // The resident may not read another member's statement: that is decided before the year is judged (docs/API.md "Refusals").
    const refused = await t.call('GET', `/companies/${f.main}/members/${f.residentId}/account-statement?year=2101`, { token: resident })
    expect(refused.status).toBe(404)
    const member = await t.call('GET', `/companies/${f.main}/members/${await userIdOf(t, demo.otherAdmin)}/account-statement`, {
      token: await t.login(demo.admin),
      headers: DA,
    })
    expect(member.status).toBe(404)
    expect(member.json.message).toBe('Personen har ingen konto hos foreningen.')
  })

  it('reads set-based: the same number of statements for 3 documents as for 60', async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const resident = await t.login(demo.resident)
    const path = `/account-statement?companyId=${f.main}&year=2026`
    await t.call('GET', path, { token: resident })
    const few = await statementsRun(t, async () => expect((await t.call('GET', path, { token: resident })).status).toBe(200))
    await transaction(t.database.db, async () => {
      const w = historyWriter(t.database.db, t.clock.now().toISOString())
      for (let i = 1; i <= 28; i++) {
        const c = await w.charge({
          agreementId: f.agreementId,
          paymentDate: `2026-02-${String(i).padStart(2, '0')}`,
          lines: [{ type: 'FEE', amount: 1000 + i }],
          status: i % 3 ? 'EXECUTED' : 'FAILED',
          kind: 'ONE_TIME',
        })
        if (i % 4 === 0) await w.refund({ chargeId: c.chargeId, amount: 500, paymentDate: '2026-02-28' })
      }
    })
    const res = await t.call('GET', path, { token: resident })
    expect((res.json as AccountStatementResponse).rows.length).toBeGreaterThan(60)
    expect(await statementsRun(t, async () => expect((await t.call('GET', path, { token: resident })).status).toBe(200))).toBe(few)
  })
  it("counts the year's dated vouchers, to the øre: a payment without a payment date, a payment outside, a later year's credit note", async () => {
    const t = await testApp()
    const f = await statementFixture(t)
    const ids = await transaction(t.database.db, async () => {
      const w = historyWriter(t.database.db, t.clock.now().toISOString())
      // C: 123.45 kr. collected, its invoice without a payment date: paid on its issue day (as the journal counts it).
      const c = await w.charge({ agreementId: f.agreementId, paymentDate: '2026-05-01', lines: [{ type: 'FEE', amount: 12_345 }], kind: 'ONE_TIME' })
      await t.db.update(invoices).set({ paymentDate: null }).where(eq(invoices.id, c.invoiceId)).run()
      // D: 200.50 kr. paid by bank transfer on 10 June; 50.25 kr. of it credited only in January 2027.
      const d = await w.charge({
        agreementId: f.agreementId,
        paymentDate: '2026-06-01',
        lines: [{ type: 'FEE', amount: 20_050 }],
        status: 'CREATED',
        kind: 'ONE_TIME',
      })
      await t.db
        .update(invoices)
        .set({ settlement: 'PAID_OUTSIDE', settledOn: '2026-06-10', settlementNote: 'Bankoverførsel' })
        .where(eq(invoices.id, d.invoiceId))
        .run()
      const note = await w.refund({ chargeId: d.chargeId, amount: 5_025, paymentDate: '2027-01-15', status: 'CREATED' })
      return { c: c.invoiceId, d: d.invoiceId, note }
    })
    t.clock.set('2027-02-01T09:00:00.000Z')
    const resident = await t.login(demo.resident)
    const y2026 = (await t.call('GET', `/account-statement?companyId=${f.main}&year=2026`, { token: resident })).json as AccountStatementResponse
    const n = (id: string) => y2026.rows.find((r) => r.documentId === id)?.documentNumber ?? '?'
    expect(y2026.interim).toBe(false)
    expect(lines(y2026)).toEqual([
      '2026-01-01 OPENING_BALANCE - 0 50000',
      `2026-03-01 INVOICE ${n(f.invoice)} 100000 150000`,
      `2026-03-02 CHARGE_FAILED ${n(f.invoice)} 0 150000`,
      `2026-03-09 PAYMENT ${n(f.invoice)} -100000 50000`,
      `2026-04-01 CREDIT_NOTE ${n(f.creditNote)} -30000 20000`,
      `2026-04-03 REFUND_PAID ${n(f.creditNote)} 30000 50000`,
      `2026-05-01 INVOICE ${n(ids.c)} 12345 62345`,
      `2026-05-01 PAYMENT ${n(ids.c)} -12345 50000`,
      `2026-06-01 INVOICE ${n(ids.d)} 20050 70050`,
      `2026-06-10 PAID_OUTSIDE ${n(ids.d)} -20050 50000`,
    ])
    // 500.00 owed from 2025 + 1,000.00 + 300.00 + 123.45 + 200.50 debited − the same credited = 500.00 owed on 31 December.
    expect({ opening: y2026.openingBalance, debit: y2026.totalDebit, credit: y2026.totalCredit, closing: y2026.closingBalance }).toEqual({
      opening: 50_000,
      debit: 162_395,
      credit: 162_395,
      closing: 50_000,
    })
    // 2027 opens with 2026's closing balance; January's credit note is 2027's (the member is owed 50.25 kr. of the 500.00 back).
    const y2027 = (await t.call('GET', `/account-statement?companyId=${f.main}&year=2027`, { token: resident })).json as AccountStatementResponse
    expect(y2027).toMatchObject({ interim: true, from: '2027-01-01', to: '2027-02-01', openingBalance: 50_000, closingBalance: 44_975 })
    expect(lines(y2027).slice(1)).toEqual([`2027-01-15 CREDIT_NOTE ${y2027.rows[1]!.documentNumber} -5025 44975`])
    // An interim statement to a day before the credit note: the same 500.00.
    const interim = (await t.call('GET', `/account-statement?companyId=${f.main}&year=2027&through=2027-01-14`, { token: resident })).json
    expect(interim).toMatchObject({ interim: true, to: '2027-01-14', closingBalance: 50_000 })
    const wrong = await t.call('GET', `/account-statement?companyId=${f.main}&year=2027&through=2026-12-31`, { token: resident, headers: DA })
    expect(wrong.status).toBe(400)
    expect(issue(wrong, 'through')).toBe('Vælg venligst en dag i kontokortets år')
  })
})
