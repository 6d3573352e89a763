/**
 * The member's account statement (kontokort, decision 0068): a resident's statement shows a
 * failed charge, the later payment (the charge collected again on the same invoice) and a refund
 * with the right running balance, also offline after a reload; it prints without the app's shell
 * and exports to a workbook. Staff open a member's statement from the debtor overview and, while
 * the year runs, send an interim statement to every member (decision 0081; the yearly statement
 * waits until the year has ended): each e-mail in the member's own language says it is interim and
 * links to the printable statement, which says so too; then they resend it to one member. Every screen is axe-clean and fits 375 px, in English and Danish
 * (screenshots under test-results/).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import * as XLSX from 'xlsx'
import { latestMailTo } from './harness'
import { checkScreen, journeySuite, signIn, syncState } from './journeys'

const { suite, journey, serverRows, writeDb, writeHistory, tr } = journeySuite('account-statement', 38)

const CLARA = 'beboer09@solgaarden.dk' // English
const NOAH = 'beboer10@solgaarden.dk' // Danish
const YEAR = new Date().getFullYear()

/** The balances (øre) and kinds of the rows the screen shows, in order. */
const rowsOf = async (page: Page) =>
  await page.locator('#account-statement tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      kind: [...tr.classList].find((c) => c.startsWith('statement-') && c !== 'statement-row') ?? '',
      balance: Number((tr.lastElementChild as HTMLElement).dataset.value),
      text: (tr.children[1] as HTMLElement).innerText,
    })),
  )

const EXPECTED = [
  { kind: 'statement-opening-balance', balance: 50_000 },
  { kind: 'statement-invoice', balance: 150_000 },
  { kind: 'statement-charge-failed', balance: 150_000 },
  { kind: 'statement-payment', balance: 50_000 },
  { kind: 'statement-credit-note', balance: 20_000 },
  { kind: 'statement-refund-paid', balance: 50_000 },
]

/**
 * A member of the demo association (a closed agreement of their own, so billing leaves it alone)
 * with this history: a fee of 500.00 kr. from December last year still unpaid; 1,000.00 kr. on 1
 * March whose charge failed on 2 March (no funds), collected again on 9 March (a new charge on the
 * same invoice); 300.00 kr. of it refunded (credit note 1 April, paid back 3 April).
 */
async function memberWithHistory(email: string, seq: number) {
  const agreementId = writeDb((db) => {
    const user = db.prepare<[string], { id: string }>('SELECT id FROM users WHERE email_address = ?').get(email)!.id
    const row = db.prepare<[], Record<string, unknown>>("SELECT * FROM agreements WHERE status = 'ACCEPTED' LIMIT 1").get()!
    const copy: Record<string, unknown> = {
      ...row,
      id: crypto.randomUUID(),
      member_user_id: user,
      status: 'CLOSED',
      external_seq: seq,
      vipps_agreement_id: null,
    }
    const columns = Object.keys(copy).filter((c) => c in row)
    db.prepare(`INSERT INTO agreements (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => copy[c] as never))
    return copy.id as string
  })
  await writeHistory(async (w, db) => {
    const old = await w.charge({ agreementId, paymentDate: `${YEAR - 1}-12-01`, lines: [{ type: 'FEE', amount: 50_000 }], status: 'FAILED', kind: 'ONE_TIME' })
    const march = await w.charge({
      agreementId,
      paymentDate: `${YEAR}-03-01`,
      lines: [{ type: 'COMMON_EXPENSES', amount: 100_000 }],
      status: 'FAILED',
      kind: 'ONE_TIME',
      description: 'Boligafgift marts',
    })
    db.prepare("UPDATE charges SET failed_on = ?, failure_reason = 'insufficient_funds' WHERE id = ?").run(`${YEAR}-03-02`, march.chargeId)
    db.prepare('UPDATE charges SET failed_on = ? WHERE id = ?').run(`${YEAR - 1}-12-02`, old.chargeId)
    for (const [charge, at] of [
      [march.chargeId, `${YEAR}-03-02T07:00:00.000Z`],
      [old.chargeId, `${YEAR - 1}-12-02T07:00:00.000Z`],
    ] as const)
      db.prepare("INSERT INTO charge_events (id, charge_id, event, amount_ore, occurred_at, success, event_key) VALUES (?, ?, 'FAIL', 0, ?, 0, ?)").run(
        crypto.randomUUID(),
        charge,
        at,
        `fail-${charge}`,
      )
    // Collected again: a one-time charge on the same invoice, executed on 9 March.
    const now = new Date().toISOString()
    db.prepare(
      `INSERT INTO charges (id, agreement_id, company_id, kind, type, amount_ore, currency, description, due, status, captured_ore, refunded_ore, invoice_id, version, created_at, updated_at)
       SELECT ?, agreement_id, company_id, 'ONE_TIME', 'UNSCHEDULED', amount_ore, currency, description, ?, 'EXECUTED', amount_ore, 0, invoice_id, 1, ?, ? FROM charges WHERE id = ?`,
    ).run(crypto.randomUUID(), `${YEAR}-03-09`, now, now, march.chargeId)
    await w.setStatus(march.invoiceId, 'EXECUTED', `${YEAR}-03-09`)
    const note = await w.refund({ chargeId: march.chargeId, amount: 30_000, paymentDate: `${YEAR}-04-03` })
    db.prepare('UPDATE invoices SET issue_date = ?, due_date = ? WHERE id = ?').run(`${YEAR}-04-01`, `${YEAR}-04-01`, note)
  })
}

async function openStatement(page: Page, email: string) {
  const t = tr(email)
  await signIn(page, email)
  await page
    .locator('nav.sidebar-nav')
    .getByRole('link', { name: t('Account statement'), exact: true })
    .click()
  await page.getByRole('heading', { level: 1, name: t('Account statement') }).waitFor()
  await page.locator('#account-statement').waitFor({ timeout: 20_000 })
}

describe('account statement', () => {
  it('a resident’s account statement shows a failed charge, the later payment and a refund with the right running balance, also offline', async () => {
    await memberWithHistory(CLARA, 9001)
    await memberWithHistory(NOAH, 9002)

    await journey('resident-en', async (context, page) => {
      await openStatement(page, CLARA)
      const rows = await rowsOf(page)
      expect(rows.map(({ kind, balance }) => ({ kind, balance }))).toEqual(EXPECTED)
      expect(rows[2]!.text).toContain('Payment failed')
      expect(rows[2]!.text).toContain('Not enough money on the card or account')
      expect(rows[4]!.text).toContain('For invoice')
      await page.getByText('you owe').first().waitFor()
      await checkScreen(page, 'account-statement-en')

      // Printed: the statement without the sidebar and the buttons.
      await page.emulateMedia({ media: 'print' })
      expect(await page.locator('nav.sidebar-nav').isVisible()).toBe(false)
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false)
      expect(await page.locator('#account-statement').isVisible()).toBe(true)
      await page.emulateMedia({ media: 'screen' })

      // Exported to a workbook, built in the browser: kroner as numbers, the running balance last.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()])
      const file = await download.path()
      const sheet = XLSX.read(readFileSync(file)).Sheets[XLSX.read(readFileSync(file)).SheetNames[0]!]!
      const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 })
      expect(table[0]).toEqual(['Date', 'Text', 'Voucher', 'Debit', 'Credit', 'Balance'])
      expect(table.slice(1, 7).map((r) => r[5])).toEqual(EXPECTED.map((e) => e.balance / 100))

      // Offline, after a reload: the same rows from this device's copy, said to be the offline copy.
      await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')
      await page.evaluate(async () => void (await navigator.serviceWorker.ready))
      await context.setOffline(true)
      await page.reload()
      await page.locator('#account-statement').waitFor({ timeout: 20_000 })
      await page.getByText(/^Offline copy/).waitFor()
      expect((await rowsOf(page)).map(({ kind, balance }) => ({ kind, balance }))).toEqual(EXPECTED)
      await checkScreen(page, 'account-statement-offline-en')
      await context.setOffline(false)
    })

    await journey('resident-da', async (_context, page) => {
      await openStatement(page, NOAH)
      const t = tr(NOAH)
      expect((await rowsOf(page)).map(({ kind, balance }) => ({ kind, balance }))).toEqual(EXPECTED)
      await page.getByText(t('Not enough money on the card or account')).waitFor()
      await page.getByText(t('you owe')).first().waitFor()
      await checkScreen(page, 'account-statement-da')
    })
  }, 180_000)

  it('staff open a member’s statement from the debtor overview, send an interim statement to every member, each e-mail in the member’s language, and resend it to one', async () => {
    let mailLink = ''
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date())
    const longDate = (locale: string) =>
      new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${today}T00:00:00Z`))
    await journey('staff', async (_context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      const openClara = async () => {
        await page.goto('/debtors')
        const row = page.getByRole('row', { name: /Clara Kristensen/ })
        await row.waitFor({ timeout: 20_000 })
        await row.getByRole('link', { name: 'Account statement' }).click()
        await page.locator('#account-statement').waitFor({ timeout: 20_000 })
      }
      await openClara()
      await page.getByText('Clara Kristensen', { exact: true }).waitFor()
      expect((await rowsOf(page)).map(({ kind, balance }) => ({ kind, balance }))).toEqual(EXPECTED)
      await page.getByText('owed').first().waitFor()
      await checkScreen(page, 'account-statement-staff-en')

      // The year runs: no yearly statement yet, an interim statement instead.
      const before = Date.now()
      await page.goto('/account-statement')
      await page.getByText(`the yearly statement can be sent from 1 January ${YEAR + 1}`, { exact: false }).waitFor({ timeout: 20_000 })
      expect(await page.getByRole('button', { name: 'Send yearly statement' }).count()).toBe(0)
      await page.getByRole('button', { name: 'Send interim statement' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Send the interim statement' }).click()
      await page.getByText(/sent on .* to \d+ members/).waitFor({ timeout: 20_000 })
      await page
        .getByText(`Interim statement — 1 January to ${longDate('en-GB')}`)
        .first()
        .waitFor()
      await checkScreen(page, 'account-statement-sendout-en')
      const sendouts = serverRows<{ recipients: number; kind: string }>('SELECT recipients, kind FROM statement_sendouts WHERE year = ?', YEAR)
      expect(sendouts).toHaveLength(1)
      expect(sendouts[0]!.kind).toBe('INTERIM')
      expect(sendouts[0]!.recipients).toBeGreaterThanOrEqual(2)

      const en = await latestMailTo(suite.server.mailDir, CLARA, before)
      expect(en.subject).toBe(`Interim statement — 1 January to ${longDate('en-GB')}`)
      expect(en.text).toContain('Hello Clara Kristensen,')
      const link = /(http\S+\/account-statement\?year=\d+&companyId=[0-9a-f-]+&through=\d{4}-\d{2}-\d{2})/.exec(en.text ?? '')?.[1]
      expect(link).toBeTruthy()
      const da = await latestMailTo(suite.server.mailDir, NOAH, before)
      expect(da.subject).toBe(`Foreløbigt kontokort — 1. januar til ${longDate('da-DK')}`)
      expect(da.text).toContain('Hej Noah Thomsen,')

      // Today's interim went out: the screen says so and offers no second one today.
      await page.reload()
      await page.getByText("Today's interim statement has been sent", { exact: false }).waitFor({ timeout: 20_000 })
      expect(await page.getByRole('button', { name: 'Send interim statement' }).count()).toBe(0)

      // Clara lost it: resent to her alone, once.
      const beforeResend = Date.now()
      await openClara()
      await page.getByRole('button', { name: 'Resend to Clara Kristensen' }).click()
      await page.getByText('The statement goes out to Clara Kristensen again within a minute.').waitFor({ timeout: 20_000 })
      const again = await latestMailTo(suite.server.mailDir, CLARA, beforeResend)
      expect(again.subject).toBe(en.subject)

      mailLink = new URL(link!).pathname + new URL(link!).search
    })
    // The member follows the e-mail's link (after signing in) to the printable statement, marked interim.
    await journey('mail-link', async (_context, page) => {
      await signIn(page, CLARA)
      await page.goto(mailLink)
      await page.locator('#account-statement').waitFor({ timeout: 20_000 })
      expect((await rowsOf(page)).map(({ kind, balance }) => ({ kind, balance }))).toEqual(EXPECTED)
      expect(await page.locator('#account-statement-caption').innerText()).toContain(String(YEAR))
      await page.getByText(`Interim statement — 1 January to ${longDate('en-GB')}`).waitFor()
    })
  })
})
