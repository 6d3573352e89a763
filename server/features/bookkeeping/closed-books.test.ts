/**
 * Closed books stay closed (decision 0079, docs/BOOKKEEPING.md "Closed months" and "The files"): closing a month closes
 * every month before it; no money date falls in the closed period or before the voucher it settles; a closed month is
 * shown and exported with the account plan of its close; "only new" is kept per file format; the sheet's dates are
 * date cells. On both engines (`npm run test:pg`).
 */
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import * as XLSX from 'xlsx'
import { eq, sql } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { invoices } from '../../db/schema/invoices'
import type { TestApp } from '../../test/harness'
import type { JournalPage } from '../../../shared/contract/bookkeeping'
import { historyWriter } from '../billing/charge-history'
import { readCsv } from '../../../shared/domain/bookkeeping-csv'
import { octoberHistory } from './test-helpers'

const OCTOBER = { from: '2026-10-01', to: '2026-10-31' }
const MINUTE = 60_000

const causeOf = (e: unknown): string => {
  const x = e as { message?: string; cause?: unknown }
  return `${x?.message ?? ''} ${x?.cause ? causeOf(x.cause) : ''}`
}

const close = (t: TestApp, token: string, companyId: string, month: string) =>
  t.call('POST', `/bookkeeping/${companyId}/closed-months`, { token, body: { month } })

const journal = async (t: TestApp, token: string, companyId: string, query: string) => {
  const res = await t.call('GET', `/bookkeeping/${companyId}/journal?${query}`, { token })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json as JournalPage
}

async function exportFile(t: TestApp, token: string, companyId: string, body: Record<string, unknown>) {
  const made = await t.call('POST', `/bookkeeping/${companyId}/exports`, { token, body: { id: v7(), ...OCTOBER, ...body } })
  expect(made.status, JSON.stringify(made.json)).toBe(201)
  const res = await t.app.request(`/api/bookkeeping/${companyId}/exports/${made.json.id}/file`, { headers: { Authorization: `Bearer ${token}` } })
  expect(res.status).toBe(200)
  return { made, bytes: new Uint8Array(await res.arrayBuffer()) }
}

/** October's history plus two unpaid invoices: one issued 10 August, one issued 20 November (today is 23 November). */
async function history() {
  const h = await octoberHistory()
  const w = historyWriter(h.t.db, h.t.clock.now().toISOString())
  const lines = [{ type: 'COMMON_EXPENSES' as const, amount: 100_000 }]
  const { august, november } = await transaction(h.t.db, async () => ({
    august: await w.charge({ agreementId: h.a.id, paymentDate: '2026-08-10', lines, status: 'FAILED', kind: 'ONE_TIME' }),
    november: await w.charge({ agreementId: h.b.id, paymentDate: '2026-11-20', lines, status: 'FAILED', kind: 'ONE_TIME' }),
  }))
  return { ...h, august, november }
}

describe('the closed period', () => {
  it('closing a month closes every month before it; closing an earlier month again answers the close that closed it', async () => {
    const { t, f, admin } = await history()
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(201)
    const closedAt = t.clock.now().toISOString()
    t.clock.advance(MINUTE)
    const september = await close(t, admin, f.main, '2026-09')
    expect(september.status).toBe(200)
    expect(september.json).toEqual({ month: '2026-10', closedAt, closedByName: expect.any(String) })
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(200)
    const list = (await t.call('GET', `/bookkeeping/${f.main}/closed-months`, { token: admin })).json
    expect(list).toEqual([{ month: '2026-10', closedAt, closedByName: expect.any(String) }])
  })

  it('refuses a payment dated in a month before the latest closed one (409), and one before the invoice was issued (422), in English and Danish', async () => {
    const { t, f, admin, august, november } = await history()
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(201)
    const markPaid = (invoiceId: string, paidOn: string, language = 'en') =>
      t.call('POST', `/invoice/${invoiceId}/markPaid`, { token: admin, body: { note: 'Bank', paidOn }, headers: { 'Accept-Language': language } })
    // September was never closed itself: it is before October, so it is closed.
    const september = await markPaid(august.invoiceId, '2026-09-15')
    expect(september.status).toBe(409)
    expect(september.json.message).toBe('The books for this month are closed, so this cannot change. Record a correction in an open month instead.')
    // The tester's case: paid two months before the invoice existed.
    const en = await markPaid(november.invoiceId, '2026-09-15')
    expect(en.status).toBe(422)
    expect(en.json.message).toBe('The payment date cannot be before the invoice was issued (2026-11-20).')
    const da = await markPaid(november.invoiceId, '2026-11-19', 'da')
    expect(da.status).toBe(422)
    expect(da.json.message).toBe('Betalingsdatoen kan ikke ligge før fakturaens udstedelsesdato (2026-11-20).')
    // On the field, so the debtor overview's dialog shows it under the date.
    expect(da.json.issues).toEqual([{ path: 'paidOn', message: 'Betalingsdatoen kan ikke ligge før fakturaens udstedelsesdato (2026-11-20).' }])
    // The day it was issued, in an open month: fine.
    expect((await markPaid(november.invoiceId, '2026-11-20')).status).toBe(200)
    const row = (await t.db.select().from(invoices).where(eq(invoices.id, november.invoiceId)).get())!
    expect(row).toMatchObject({ settlement: 'PAID_OUTSIDE', settledOn: '2026-11-20' })
  })

  it('the database refuses a change dated in a month before the latest closed one, also where months were closed with gaps', async () => {
    const { t, f, admin, a } = await history()
    // Data from before this rule: August and October closed, September not.
    await t.db.run(
      sql`INSERT INTO bookkeeping_closed_months (company_id, month, closed_at, closed_by_name) VALUES (${f.main}, '2026-08', '2026-09-02T10:00:00.000Z', 'Old')`,
    )
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(201)
    const w = historyWriter(t.db, t.clock.now().toISOString())
    const september = (await t.db
      .select()
      .from(invoices)
      .where(sql`${invoices.companyId} = ${f.main} AND ${invoices.paymentDate} = '2026-09-30'`)
      .get())!
    await expect(transaction(t.db, () => w.setStatus(september.id, 'CANCELED', null))).rejects.toSatisfy((e) => /month is closed/.test(causeOf(e)))
    await expect(transaction(t.db, () => w.charge({ agreementId: a.id, paymentDate: '2026-09-10', lines: [{ type: 'FEE', amount: 100 }] }))).rejects.toSatisfy(
      (e) => /month is closed/.test(causeOf(e)),
    )
  })

  it('a correction of a closed month is a new voucher of today, in the first open month: a write-off and a refund', async () => {
    const { t, f, admin, a, ids, august } = await history()
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(201)
    const off = await t.call('POST', `/invoice/${august.invoiceId}/writeOff`, { token: admin, body: { note: 'Tabt' } })
    expect(off.status, JSON.stringify(off.json)).toBe(201)
    const note = (await t.db.select().from(invoices).where(eq(invoices.creditedInvoiceId, august.invoiceId)).get())!
    expect(note).toMatchObject({ kind: 'CREDIT_NOTE', issueDate: '2026-11-23', settledOn: '2026-11-23' })
    expect((await t.db.select().from(invoices).where(eq(invoices.id, august.invoiceId)).get())!.settledOn).toBe('2026-11-23')
    const refund = await t.call('POST', `/agreement/${a.id}/refund`, {
      token: admin,
      body: { chargeId: ids.aOct.chargeId, amount: 1_000, description: 'Rettelse' },
    })
    expect(refund.status, JSON.stringify(refund.json)).toBe(201)
    expect((await t.db.select().from(invoices).where(eq(invoices.id, refund.json.creditNote.id)).get())!.issueDate).toBe('2026-11-23')
  })
})

describe('a closed month keeps its account plan', () => {
  const changedPlan = async (t: TestApp, token: string, companyId: string) => {
    const plan = (await t.call('GET', `/bookkeeping/${companyId}/accounts`, { token })).json.plan
    const changed = { ...plan, clearingAccount: '5899', parts: { ...plan.parts, HEAT: { account: '1029', vatCode: 'I25' } } }
    expect((await t.call('PUT', `/bookkeeping/${companyId}/accounts`, { token, body: changed })).status).toBe(200)
  }

  it('the journal shows a closed month with the plan of its close and an open month with today’s; the totals follow', async () => {
    const { t, f, admin } = await history()
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(201)
    t.clock.advance(MINUTE)
    await changedPlan(t, admin, f.main)
    const page = await journal(t, admin, f.main, 'from=2026-10-01&to=2026-11-30&limit=500')
    const october = page.entries.filter((e) => e.date < '2026-11-01')
    const november = page.entries.filter((e) => e.date >= '2026-11-01')
    expect(october.length).toBeGreaterThan(0)
    expect(november.length).toBeGreaterThan(0)
    expect(october.every((e) => e.event === 'PAID_OUTSIDE' || e.contraAccount === '5820')).toBe(true)
    expect(october.some((e) => e.account === '1020')).toBe(true)
    expect(october.some((e) => e.account === '1029')).toBe(false)
    expect(november.every((e) => e.event === 'PAID_OUTSIDE' || e.contraAccount === '5899')).toBe(true)
    // Totals per account are the entries summed, each month with its plan.
    const sums = new Map<string, number>()
    for (const e of page.entries) {
      sums.set(e.account, (sums.get(e.account) ?? 0) + e.amount)
      sums.set(e.contraAccount, (sums.get(e.contraAccount) ?? 0) - e.amount)
    }
    const totals = new Map(page.totals!.map((x) => [x.account, x.amount]))
    for (const [account, amount] of sums) expect(totals.get(account) ?? 0, account).toBe(amount)
    expect(totals.get('5820')).toBeGreaterThan(0)
  })

  it('a new export of closed October after a plan change is the same bytes as the one before it (CSV and xlsx)', async () => {
    const { t, f, admin } = await history()
    // Posted once (each format), then October is closed and exported whole.
    await exportFile(t, admin, f.main, { format: 'CSV' })
    await exportFile(t, admin, f.main, { format: 'XLSX' })
    t.clock.advance(MINUTE)
    expect((await close(t, admin, f.main, '2026-10')).status).toBe(201)
    t.clock.advance(MINUTE)
    const csv = await exportFile(t, admin, f.main, { format: 'CSV', onlyNew: false })
    const xlsx = await exportFile(t, admin, f.main, { format: 'XLSX', onlyNew: false })
    expect(new TextDecoder().decode(csv.bytes)).toContain(';1020;5820;')
    t.clock.advance(MINUTE)
    await changedPlan(t, admin, f.main)
    t.clock.advance(MINUTE)
    const csvAgain = await exportFile(t, admin, f.main, { format: 'CSV', onlyNew: false })
    const xlsxAgain = await exportFile(t, admin, f.main, { format: 'XLSX', onlyNew: false })
    expect(csvAgain.bytes).toEqual(csv.bytes)
    expect(xlsxAgain.bytes).toEqual(xlsx.bytes)
    // November is open: it follows the new plan.
    const november = await exportFile(t, admin, f.main, { format: 'CSV', from: '2026-11-01', to: '2026-11-30' })
    expect(new TextDecoder().decode(november.bytes)).toContain(';5899;')
  })
})

describe('exports', () => {
  it('"only new" is kept per format: the xlsx right after the CSV of the same month holds the same entries; each again is empty', async () => {
    const { t, f, admin } = await history()
    const csv = await exportFile(t, admin, f.main, { format: 'CSV' })
    expect(csv.made.json.entries).toBe(4)
    const counts = await journal(t, admin, f.main, `from=${OCTOBER.from}&to=${OCTOBER.to}`)
    expect(counts).toMatchObject({ vouchers: 4, unexported: 0, unexportedByFormat: { CSV: 0, XLSX: 4 } })
    const xlsx = await exportFile(t, admin, f.main, { format: 'XLSX' })
    expect(xlsx.made.json.entries).toBe(4)
    const rows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(xlsx.bytes, { type: 'array' }).Sheets['Kassekladde']!, { header: 1 })
    expect(rows.length - 1).toBe(readCsv(new TextDecoder().decode(csv.bytes).replace(/^\uFEFF/, '')).length - 1)
    expect((await exportFile(t, admin, f.main, { format: 'XLSX' })).made.json.entries).toBe(0)
    expect((await exportFile(t, admin, f.main, { format: 'CSV' })).made.json.entries).toBe(0)
    expect(await journal(t, admin, f.main, `from=${OCTOBER.from}&to=${OCTOBER.to}`)).toMatchObject({ unexportedByFormat: { CSV: 0, XLSX: 0 } })
    // "All" in xlsx names the xlsx's own first export as "exported before".
    const all = await exportFile(t, admin, f.main, { format: 'XLSX', onlyNew: false })
    const sheet = XLSX.read(all.bytes, { type: 'array', cellNF: true }).Sheets['Kassekladde']!
    const before = sheet['H2'] as XLSX.CellObject
    expect(before.t).toBe('n')
    expect(XLSX.SSF.parse_date_code(before.v as number)).toMatchObject({ y: 2026, m: 11, d: 23 })
  })

  it('the sheet’s dates are date cells shown dd-mm-yyyy and its amounts numbers', async () => {
    const { t, f, admin } = await history()
    const { bytes } = await exportFile(t, admin, f.main, { format: 'XLSX' })
    const sheet = XLSX.read(bytes, { type: 'array', cellNF: true }).Sheets['Kassekladde']!
    const rows = XLSX.utils.decode_range(sheet['!ref']!).e.r
    expect(rows).toBe(XLSX.utils.sheet_to_json(sheet).length)
    for (let r = 1; r <= rows; r++) {
      const date = sheet[XLSX.utils.encode_cell({ r, c: 0 })] as XLSX.CellObject
      expect(date.t).toBe('n')
      expect(date.z).toBe('dd-mm-yyyy')
      expect(XLSX.SSF.is_date(String(date.z))).toBe(true)
      const day = XLSX.SSF.parse_date_code(date.v as number)
      expect([day.y, day.m]).toEqual([2026, 10])
      expect(XLSX.SSF.format(String(date.z), date.v)).toMatch(/^\d{2}-10-2026$/)
      const amount = sheet[XLSX.utils.encode_cell({ r, c: 5 })] as XLSX.CellObject
      expect(amount.t).toBe('n')
      expect(typeof amount.v).toBe('number')
    }
    // Read as dates, they are dates.
    const asDates = XLSX.read(bytes, { type: 'array', cellDates: true }).Sheets['Kassekladde']!
    expect((asDates['A2'] as XLSX.CellObject).t).toBe('d')
    const first = (asDates['A2'] as XLSX.CellObject).v as Date
    expect([first.getFullYear(), first.getMonth() + 1]).toEqual([2026, 10])
  })
})
