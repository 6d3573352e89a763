/**
 * Bookkeeping as decision 0067 and docs/BOOKKEEPING.md have it: a month of demo-like history posted to the journal — its totals per
 * account equal the charge statistics of the same month; the CSV reads back with Danish decimals;
 * exports mark what they included; a closed month refuses a change (service 409 in EN/DA, and the
 * database's triggers) while a later correction lands in the open month.
 */
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import * as XLSX from 'xlsx'
import { eq, sql } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { charges } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { demo, type TestApp } from '../../test/harness'
import { partTypes } from '../../../shared/domain/agreement-parts'
import { categoryOfPartType, statisticsCategories } from '../../../shared/domain/statistics'
import { defaultAccountPlan } from '../../../shared/domain/bookkeeping'
import type { JournalPage } from '../../../shared/contract/bookkeeping'
import { historyWriter } from '../billing/charge-history'
import { readCsv as parseCsv } from '../../../shared/domain/bookkeeping-csv'
import { octoberHistory } from './test-helpers'

const OCTOBER = 'from=2026-10-01&to=2026-10-31'

/** The database's own message, under drizzle's wrapping. */
const causeOf = (e: unknown): string => {
  const x = e as { message?: string; cause?: unknown }
  return `${x?.message ?? ''} ${x?.cause ? causeOf(x.cause) : ''}`
}
const closed = (e: unknown) => /month is closed/.test(causeOf(e))

const journal = async (t: TestApp, token: string, companyId: string, query: string) => {
  const res = await t.call('GET', `/bookkeeping/${companyId}/journal?${query}`, { token })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json as JournalPage
}

/** Every entry of a period, a few vouchers a page (the keyset walk). */
async function allEntries(t: TestApp, token: string, companyId: string, query: string) {
  const entries: JournalPage['entries'] = []
  let cursor: string | null = null
  do {
    const page: JournalPage = await journal(t, token, companyId, `${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
    // The period's totals and counts come with the first page only (decision 0067).
    if (cursor) expect(page).toMatchObject({ totals: null, vouchers: null, unexported: null })
    else expect(page.totals).not.toBeNull()
    entries.push(...page.entries)
    cursor = page.nextCursor
  } while (cursor)
  return entries
}

async function exportFile(t: TestApp, token: string, companyId: string, body: Record<string, unknown>) {
  const made = await t.call('POST', `/bookkeeping/${companyId}/exports`, { token, body })
  expect([200, 201], JSON.stringify(made.json)).toContain(made.status)
  const res = await t.app.request(`/api/bookkeeping/${companyId}/exports/${made.json.id}/file`, { headers: { Authorization: `Bearer ${token}` } })
  expect(res.status).toBe(200)
  return { made, res, bytes: new Uint8Array(await res.arrayBuffer()) }
}

const toOre = (kroner: string) => {
  expect(kroner).toMatch(/^-?\d+,\d{2}$/)
  return Number(kroner.replace(',', '.')) * 100
}

describe('bookkeeping journal', () => {
  it('posts a month: totals per account equal the charge statistics of the same month, on every page walk', async () => {
    const { t, f, admin } = await octoberHistory()
    const page = await journal(t, admin, f.main, OCTOBER)
    const stats = await t.call('GET', `/company/${f.main}/charges-statistics?type=custom&startDate=2026-10-01&endDate=2026-10-31`, { token: admin })
    expect(stats.status).toBe(200)
    const summary = stats.json.statistics.summary as Record<string, number>
    const plan = defaultAccountPlan()
    const expected = new Map<string, number>()
    for (const type of partTypes) {
      const account = plan.parts[type].account
      expected.set(account, (expected.get(account) ?? 0) - summary[categoryOfPartType[type]]!)
    }
    const totals = new Map(page.totals!.map((x) => [x.account, x.amount]))
    for (const [account, amount] of expected) expect(totals.get(account) ?? 0, account).toBe(amount)
    // The contra account holds the whole month's withdrawn money, debit-positive.
    expect(totals.get(plan.clearingAccount)).toBe(statisticsCategories.reduce((s, c) => s + summary[c]!, 0))
    expect(summary.heating).toBe(65_050 - 6_505)
    // The pages add up to the same totals; the failed, reserved, September and November ones are not in it.
    const entries = await allEntries(t, admin, f.main, OCTOBER)
    const byAccount = new Map<string, number>()
    for (const e of entries) byAccount.set(e.account, (byAccount.get(e.account) ?? 0) + e.amount)
    for (const [account, amount] of expected) expect(byAccount.get(account) ?? 0).toBe(amount)
    expect(new Set(entries.map((e) => e.date.slice(0, 7)))).toEqual(new Set(['2026-10']))
    expect(page.vouchers).toBe(4)
    // B's OTHER lines split by VAT: the 25 % line has the VAT code, the VAT-free one none; both on 1090.
    const other = entries.filter((e) => e.account === '1090')
    expect(other.map((e) => [e.vatCode, e.amount]).sort()).toEqual([
      ['', -700],
      ['U25', -12_345],
    ])
    expect(other[0]!.text).toMatch(/^[^,]+, Solgårdsvej .*2026-10-01$/)
    // The refund paid back in October debits the accounts it credits.
    expect(entries.filter((e) => e.event === 'REFUNDED').map((e) => e.amount)).toEqual([45_000, 6_505])
  })

  it('exports the CSV Danish systems import: BOM, semicolons, decimal comma, dd-mm-yyyy, CRLF; read back by the xlsx reader', async () => {
    const { t, f, admin } = await octoberHistory()
    const { bytes, res } = await exportFile(t, admin, f.main, { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'CSV' })
    expect(res.headers.get('content-disposition')).toContain('bogfoering-2026-10-01-2026-10-31.csv')
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
    expect(text.charCodeAt(0)).toBe(0xfeff)
    expect(text.endsWith('\r\n')).toBe(true)
    const rows = parseCsv(text.slice(1))
    expect(rows[0]).toEqual(['Dato', 'Bilag', 'Konto', 'Modkonto', 'Momskode', 'Beløb', 'Tekst', 'Eksporteret før'])
    const body = rows.slice(1)
    expect(body.every((r) => r.length === 8 && /^\d{2}-10-2026$/.test(r[0]!))).toBe(true)
    const heat = body.filter((r) => r[2] === '1020').map((r) => toOre(r[5]!))
    expect(heat.reduce((s, x) => s + x, 0)).toBe(-(65_050 - 6_505))
    expect(body.find((r) => r[5] === '-123,45')).toBeDefined()
    // A spreadsheet's reader sees the same rows and the Danish decimals as written.
    const book = XLSX.read(bytes, { type: 'array', raw: true })
    const sheet = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1, raw: false, defval: '' })
    expect(sheet[0]![5]).toBe('Beløb')
    const amounts = sheet.slice(1).map((r) => toOre(String(r[5])))
    expect(amounts).toEqual(body.map((r) => toOre(r[5]!)))
    expect(amounts.reduce((s, x) => s + x, 0)).toBe(-(await journal(t, admin, f.main, OCTOBER)).totals!.find((x) => x.account === '5820')!.amount)
  })

  it('exports as xlsx with the amount a number in kroner', async () => {
    const { t, f, admin } = await octoberHistory()
    const { bytes } = await exportFile(t, admin, f.main, { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'XLSX' })
    const book = XLSX.read(bytes, { type: 'array' })
    const rows = XLSX.utils.sheet_to_json<(string | number)[]>(book.Sheets['Kassekladde']!, { header: 1 })
    expect(rows[0]![5]).toBe('Beløb')
    expect(rows.slice(1).some((r) => r[5] === -123.45)).toBe(true)
  })

  it('marks exported entries: "only new" a second time gives an empty file, a retry the same file, "all" says exported before', async () => {
    const { t, f, admin } = await octoberHistory()
    const id = v7()
    const first = await exportFile(t, admin, f.main, { id, from: '2026-10-01', to: '2026-10-31', format: 'CSV' })
    expect(first.made.status).toBe(201)
    expect(first.made.json).toMatchObject({ entries: 4, onlyNew: true, exportedByName: expect.any(String) })
    const lines = (b: Uint8Array) => parseCsv(new TextDecoder().decode(b).replace(/^\uFEFF/, '')).length
    // The same id again: the same export and file (a retry after a lost answer).
    const retry = await exportFile(t, admin, f.main, { id, from: '2026-10-01', to: '2026-10-31', format: 'CSV' })
    expect(retry.made.status).toBe(200)
    expect(retry.bytes).toEqual(first.bytes)
    // The id with another period: 409.
    expect(
      (await t.call('POST', `/bookkeeping/${f.main}/exports`, { token: admin, body: { id, from: '2026-10-01', to: '2026-10-30', format: 'CSV' } })).status,
    ).toBe(409)
    const again = await exportFile(t, admin, f.main, { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'CSV' })
    expect(again.made.json.entries).toBe(0)
    expect(lines(again.bytes)).toBe(1)
    const all = await exportFile(t, admin, f.main, { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'CSV', onlyNew: false })
    const rows = parseCsv(new TextDecoder().decode(all.bytes).replace(/^\uFEFF/, '')).slice(1)
    expect(rows.length).toBe(lines(first.bytes) - 1)
    expect(rows.every((r) => r[7] === '23-11-2026')).toBe(true)
    // The screen: nothing new in October; everything marked.
    const page = await journal(t, admin, f.main, `${OCTOBER}&onlyNew=true`)
    expect(page).toMatchObject({ entries: [], unexported: 0, vouchers: 4 })
    expect((await journal(t, admin, f.main, OCTOBER)).entries.every((e) => e.exportedAt !== null)).toBe(true)
    expect((await t.call('GET', `/bookkeeping/${f.main}/exports`, { token: admin })).json).toHaveLength(3)
  })

  it('downloads an export again as the same bytes after the account plan changed (CSV and xlsx); a new export uses the new plan', async () => {
    const { t, f, admin } = await octoberHistory()
    const body = (format: string) => ({ id: v7(), from: '2026-10-01', to: '2026-10-31', format, onlyNew: false })
    const csv = await exportFile(t, admin, f.main, body('CSV'))
    const xlsx = await exportFile(t, admin, f.main, body('XLSX'))
    const plan = (await t.call('GET', `/bookkeeping/${f.main}/accounts`, { token: admin })).json.plan
    const changed = { ...plan, clearingAccount: '5899', parts: { ...plan.parts, HEAT: { account: '1029', vatCode: 'I25' } } }
    expect((await t.call('PUT', `/bookkeeping/${f.main}/accounts`, { token: admin, body: changed })).status).toBe(200)
    const again = async (id: string) => {
      const res = await t.app.request(`/api/bookkeeping/${f.main}/exports/${id}/file`, { headers: { Authorization: `Bearer ${admin}` } })
      expect(res.status).toBe(200)
      return new Uint8Array(await res.arrayBuffer())
    }
    expect(await again(csv.made.json.id)).toEqual(csv.bytes)
    expect(await again(xlsx.made.json.id)).toEqual(xlsx.bytes)
    expect(new TextDecoder().decode(csv.bytes)).toContain(';1020;5820;')
    const fresh = await exportFile(t, admin, f.main, body('CSV'))
    const text = new TextDecoder().decode(fresh.bytes)
    expect(text).toContain(';1029;5899;;')
    expect(text).not.toContain(';1020;')
  })

  it('the same export asked twice at once is one export: the events are marked once, both answers name it', async () => {
    const { t, f, admin } = await octoberHistory()
    const body = { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'CSV' }
    const both = await Promise.all([0, 1].map(() => t.call('POST', `/bookkeeping/${f.main}/exports`, { token: admin, body })))
    expect(both.map((r) => r.status).sort()).toEqual([200, 201])
    expect(both.map((r) => r.json.entries)).toEqual([4, 4])
    expect((await t.call('GET', `/bookkeeping/${f.main}/exports`, { token: admin })).json).toHaveLength(1)
    // Another association's admin cannot see or download it, nor reuse its id.
    const other = await t.login(demo.otherAdmin)
    expect((await t.app.request(`/api/bookkeeping/${f.main}/exports/${body.id}/file`, { headers: { Authorization: `Bearer ${other}` } })).status).toBe(404)
  })

  it('a member named like a formula stays text in the CSV and the xlsx (CSV injection)', async () => {
    const { t, f, admin, ids } = await octoberHistory()
    await t.db.run(sql`UPDATE invoices SET consumer_name = '=HYPERLINK("http://x.example";"Klik")' WHERE id = ${ids.cOct.invoiceId}`)
    const csv = await exportFile(t, admin, f.main, { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'CSV', onlyNew: false })
    const texts = parseCsv(new TextDecoder().decode(csv.bytes)).map((r) => r[6]!)
    expect(texts.some((x) => x.startsWith(`'=HYPERLINK("http://x.example";"Klik")`))).toBe(true)
    expect(texts.every((x) => !/^[=+\-@]/.test(x))).toBe(true)
    const xlsx = await exportFile(t, admin, f.main, { id: v7(), from: '2026-10-01', to: '2026-10-31', format: 'XLSX', onlyNew: false })
    const sheet = XLSX.read(xlsx.bytes, { type: 'array', cellFormula: true }).Sheets['Kassekladde']!
    const cells = Object.entries(sheet)
      .filter(([k]) => /^G\d+$/.test(k))
      .map(([, c]) => c as XLSX.CellObject)
    expect(cells.every((c) => c.t === 's' && !c.f && !/^[=+\-@]/.test(String(c.v)))).toBe(true)
    expect(cells.some((c) => String(c.v).startsWith("'=HYPERLINK"))).toBe(true)
  })

  it('refuses a period of 367 days in English and Danish; 366 days is fine', async () => {
    const { t, f, admin } = await octoberHistory()
    expect((await t.call('GET', `/bookkeeping/${f.main}/journal?from=2025-11-23&to=2026-11-23`, { token: admin })).status).toBe(200)
    const en = await t.call('GET', `/bookkeeping/${f.main}/journal?from=2025-11-22&to=2026-11-23`, { token: admin })
    expect(en.status).toBe(400)
    const da = await t.call('POST', `/bookkeeping/${f.main}/exports`, {
      token: admin,
      body: { id: v7(), from: '2025-11-22', to: '2026-11-23', format: 'CSV' },
      headers: { 'Accept-Language': 'da' },
    })
    expect(da.status).toBe(400)
    expect(JSON.stringify(en.json)).not.toEqual(JSON.stringify(da.json))
  })
})

describe('account plan', () => {
  it('starts at the defaults; staff change it with If-Match; the journal follows; bad input is 400 in English and Danish', async () => {
    const { t, f, admin } = await octoberHistory()
    const accountant = await t.login(demo.accountant)
    const read = await t.call('GET', `/bookkeeping/${f.main}/accounts`, { token: accountant })
    expect(read.status).toBe(200)
    expect(read.json).toMatchObject({ version: 1, plan: { clearingAccount: '5820', parts: { HEAT: { account: '1020', vatCode: 'U25' } } } })
    const plan = { ...read.json.plan, refundAccount: '1095', parts: { ...read.json.plan.parts, HEAT: { account: '1025', vatCode: 'u25' } } }
    const saved = await t.call('PUT', `/bookkeeping/${f.main}/accounts`, { token: accountant, body: plan, headers: { 'If-Match': '"1"' } })
    expect(saved.status, JSON.stringify(saved.json)).toBe(200)
    expect(saved.json).toMatchObject({ version: 2, plan: { refundAccount: '1095', parts: { HEAT: { account: '1025', vatCode: 'U25' } } } })
    expect((await t.call('PUT', `/bookkeeping/${f.main}/accounts`, { token: admin, body: plan, headers: { 'If-Match': '"1"' } })).status).toBe(412)
    const page = await journal(t, admin, f.main, OCTOBER)
    expect(page.totals!.find((x) => x.account === '1025')!.amount).toBe(-65_050)
    expect(page.totals!.find((x) => x.account === '1095')!.amount).toBe(51_505)
    const bad = { ...plan, clearingAccount: '58-20', parts: { ...plan.parts, FEE: { account: '1040', vatCode: 'MOMS 25%' } } }
    const en = await t.call('PUT', `/bookkeeping/${f.main}/accounts`, { token: admin, body: bad })
    expect(en.status).toBe(400)
    expect(JSON.stringify(en.json)).toContain('An account number is 1 to 10 digits')
    expect(JSON.stringify(en.json)).toContain('A VAT code is at most 10 letters or digits')
    const da = await t.call('PUT', `/bookkeeping/${f.main}/accounts`, { token: admin, body: bad, headers: { 'Accept-Language': 'da' } })
    expect(da.status).toBe(400)
    expect(JSON.stringify(da.json)).toContain('Et kontonummer er 1 til 10 cifre')
    const period = await t.call('GET', `/bookkeeping/${f.main}/journal?from=2026-10-31&to=2026-10-01`, { token: admin, headers: { 'Accept-Language': 'da' } })
    expect(period.status).toBe(400)
    expect(JSON.stringify(period.json)).toContain('Perioden kan ikke slutte før den begynder')
  })
})

describe('closed months', () => {
  it('closes an ended month once; refuses the current month; then refuses changes dated in it, in English and Danish', async () => {
    const { t, f, admin, ids } = await octoberHistory()
    const close = (month: string, headers: Record<string, string> = {}) =>
      t.call('POST', `/bookkeeping/${f.main}/closed-months`, { token: admin, body: { month }, headers })
    const notEnded = await close('2026-11', { 'Accept-Language': 'da' })
    expect(notEnded.status).toBe(422)
    expect(notEnded.json.message).toBe('En måned kan først lukkes, når den er slut.')
    expect((await close('2026-13')).status).toBe(400)
    expect((await close('2026-10')).status).toBe(201)
    const twice = await close('2026-10')
    expect(twice.status).toBe(200)
    expect((await t.call('GET', `/bookkeeping/${f.main}/closed-months`, { token: admin })).json).toEqual([
      { month: '2026-10', closedAt: t.clock.now().toISOString(), closedByName: expect.any(String) },
    ])
    // Marking the unpaid October invoice paid on a day in October: 409, in the caller's language.
    const markPaid = (paidOn: string | undefined, headers: Record<string, string> = {}) =>
      t.call('POST', `/invoice/${ids.unpaid.invoiceId}/markPaid`, { token: admin, body: { note: 'Bankoverførsel', paidOn }, headers })
    const en = await markPaid('2026-10-30')
    expect(en.status).toBe(409)
    expect(en.json.message).toBe('The books for this month are closed, so this cannot change. Record a correction in an open month instead.')
    const da = await markPaid('2026-10-30', { 'Accept-Language': 'da' })
    expect(da.status).toBe(409)
    expect(da.json.message).toBe('Bogføringen for denne måned er lukket, så dette kan ikke ændres. Bogfør en rettelse i en åben måned i stedet.')
    expect((await markPaid('2026-12-01')).status).toBe(422)
    // Paid today (November, open): fine, and it lands in November's journal against the bank.
    expect((await markPaid(undefined)).status).toBe(200)
    const november = await journal(t, admin, f.main, 'from=2026-11-01&to=2026-11-30')
    expect(november.entries.filter((e) => e.event === 'PAID_OUTSIDE').every((e) => e.contraAccount === '5810' && e.date === '2026-11-23')).toBe(true)
    expect(november.entries.some((e) => e.event === 'PAID_OUTSIDE')).toBe(true)
  })

  it('closing twice at once closes once; closing while a payment in the month is written: either it lands before the close, or it is refused', async () => {
    const { t, f, admin, ids } = await octoberHistory()
    const close = () => t.call('POST', `/bookkeeping/${f.main}/closed-months`, { token: admin, body: { month: '2026-10' } })
    const markPaid = () => t.call('POST', `/invoice/${ids.unpaid.invoiceId}/markPaid`, { token: admin, body: { note: 'Bank', paidOn: '2026-10-30' } })
    const [a, b, paid] = await Promise.all([close(), close(), markPaid()])
    expect([a.status, b.status].sort()).toEqual([200, 201])
    expect((await t.call('GET', `/bookkeeping/${f.main}/closed-months`, { token: admin })).json).toHaveLength(1)
    const row = (await t.db.select().from(invoices).where(eq(invoices.id, ids.unpaid.invoiceId)).get())!
    if (paid.status === 200) expect(row).toMatchObject({ settlement: 'PAID_OUTSIDE', settledOn: '2026-10-30' })
    else {
      expect(paid.status).toBe(409)
      expect(row.settlement).not.toBe('PAID_OUTSIDE')
    }
    // Refused: and it stays refused after the close.
    if (paid.status !== 200) expect((await markPaid()).status).toBe(409)
  })

  it('the database refuses a change of a document dated in a closed month, but not blanking the member’s e-mail and phone', async () => {
    const { t, f, admin, ids } = await octoberHistory()
    expect((await t.call('POST', `/bookkeeping/${f.main}/closed-months`, { token: admin, body: { month: '2026-10' } })).status).toBe(201)
    const w = historyWriter(t.db, t.clock.now().toISOString())
    await expect(transaction(t.db, () => w.setStatus(ids.aOct.invoiceId, 'CANCELED', null))).rejects.toSatisfy(closed)
    await expect(
      transaction(t.db, async () => {
        await t.db.update(invoices).set({ totalOre: 1 }).where(eq(invoices.id, ids.cOct.invoiceId)).run()
      }),
    ).rejects.toSatisfy(closed)
    await expect(
      transaction(t.db, async () => {
        await t.db.run(sql`UPDATE invoice_lines SET total_incl_vat_ore = 1 WHERE invoice_id = ${ids.cOct.invoiceId}`)
      }),
    ).rejects.toSatisfy(closed)
    // A new document dated in it.
    const agreementId = (await octoberAgreement(t, ids.cOct.chargeId))!
    await expect(transaction(t.db, () => w.charge({ agreementId, paymentDate: '2026-10-31', lines: [{ type: 'FEE', amount: 100 }] }))).rejects.toSatisfy(closed)
    // The GDPR erase blanks contact details on kept vouchers.
    await transaction(t.db, async () => {
      await t.db.update(invoices).set({ consumerEmailAddress: '', consumerPhoneNumber: null }).where(eq(invoices.id, ids.aOct.invoiceId)).run()
    })
    expect((await t.db.select().from(invoices).where(eq(invoices.id, ids.aOct.invoiceId)).get())!.consumerEmailAddress).toBe('')
    // A closed month stays closed.
    await expect(transaction(t.db, async () => void (await t.db.run(sql`DELETE FROM bookkeeping_closed_months`)))).rejects.toSatisfy((e) =>
      /stays closed/.test(causeOf(e)),
    )
  })

  it('a late Vipps status for a charge paid in a closed month is logged and left: the worker does not fail', async () => {
    const { t, f, admin, ids } = await octoberHistory()
    expect((await t.call('POST', `/bookkeeping/${f.main}/closed-months`, { token: admin, body: { month: '2026-10' } })).status).toBe(201)
    const before = (await t.db.select().from(invoices).where(eq(invoices.id, ids.cOct.invoiceId)).get())!
    await transaction(t.db, async () => {
      const charge = (await t.services.charges.row(ids.cOct.chargeId))!
      await t.db
        .update(charges)
        .set({ status: 'CANCELED', version: charge.version + 1 })
        .where(eq(charges.id, charge.id))
        .run()
      await t.services.invoicing.followCharge((await t.services.charges.row(charge.id))!, charge.status)
    })
    const after = (await t.db.select().from(invoices).where(eq(invoices.id, ids.cOct.invoiceId)).get())!
    expect(after).toMatchObject({ status: 'EXECUTED', paymentDate: before.paymentDate, version: before.version })
  })

  it('a later correction lands in the open month: a refund of a charge paid in the closed month is in today’s journal', async () => {
    const { t, f, admin, a, ids } = await octoberHistory()
    expect((await t.call('POST', `/bookkeeping/${f.main}/closed-months`, { token: admin, body: { month: '2026-10' } })).status).toBe(201)
    const refund = await t.call('POST', `/agreement/${a.id}/refund`, {
      token: admin,
      body: { chargeId: ids.aOct.chargeId, amount: 10_000, description: 'Rettelse' },
    })
    expect(refund.status, JSON.stringify(refund.json)).toBe(201)
    const note = (await t.db.select().from(invoices).where(eq(invoices.id, refund.json.creditNote.id)).get())!
    expect(note.issueDate).toBe('2026-11-23')
    await transaction(t.db, () => t.services.invoicing.refundSent({ outboxId: note.refundId!, ok: true }))
    const november = await journal(t, admin, f.main, 'from=2026-11-01&to=2026-11-30')
    const voucher = november.entries.filter((e) => e.voucher === note.number)
    expect(voucher.reduce((s, e) => s + e.amount, 0)).toBe(10_000)
    expect(voucher.every((e) => e.event === 'REFUNDED' && e.date === '2026-11-23')).toBe(true)
    // October's journal is as it was.
    expect((await journal(t, admin, f.main, OCTOBER)).vouchers).toBe(4)
  })
})

async function octoberAgreement(t: TestApp, chargeId: string) {
  return (await t.db.select().from(charges).where(eq(charges.id, chargeId)).get())?.agreementId
}
