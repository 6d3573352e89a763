/**
 * Decision 0070 journey: a fresh demo started with the built-in emulator (as `npm start`) shows
 * Solgården's last three months of charges, made by the billing engine at start: the accountant (in
 * Danish) finds last month's journal and the one unpaid invoice under Debtors, the administrator (in
 * English) the charge statistics, a resident their account statement. Screens at 375 and 1280 px.
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
import { checkScreen, journeySuite, signIn, openFromSidebar } from './journeys'

// The demo's own history, which the other journeys leave out (DEMO_HISTORY=0 in e2e/harness.ts).
const { journey, serverRows } = journeySuite('demo-history', 70, { DEMO_HISTORY: '1' })

describe('demo history journey', () => {
  it('the engine made three months: 18 charges, two declined, one refund', () => {
    const rows = serverRows<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM charges WHERE kind = 'REGULAR' GROUP BY status ORDER BY status")
    expect(rows).toEqual([
      { status: 'EXECUTED', n: 16 },
      { status: 'FAILED', n: 2 },
    ])
    expect(serverRows<{ n: number }>("SELECT COUNT(*) AS n FROM invoices WHERE kind = 'CREDIT_NOTE' AND status = 'EXECUTED'")[0]!.n).toBe(1)
  })

  it('the accountant (Danish) sees last month in the journal and the unpaid invoice under Debtors', () =>
    journey('accountant', async (_context, page) => {
      await signIn(page, 'kasserer@solgaarden.dk')
      await openFromSidebar(page, danish('Bookkeeping'))
      const totals = page.getByRole('table', { name: danish('Totals per account for the period') })
      await totals.waitFor({ timeout: 20_000 })
      // Common expenses, heating, cold water and the Vipps MobilePay clearing account.
      for (const account of ['1010', '1020', '1032', '5820'])
        await expect.poll(() => totals.getByRole('row', { name: new RegExp(`^${account} `) }).count()).toBe(1)
      await checkScreen(page, 'demo-history-bookkeeping-da')

      await openFromSidebar(page, danish('Debtors'))
      const row = page.getByRole('row').filter({ hasText: danish('Failed') })
      await row.first().waitFor({ timeout: 20_000 })
      expect(await row.count()).toBe(1)
      await checkScreen(page, 'demo-history-debtors-da')
    }))

  it('the administrator (English) sees the charge statistics of the months', () =>
    journey('administrator', async (_context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Charges' }).click()
      await page.getByRole('heading', { name: 'Charges', level: 1 }).waitFor()
      const table = page.locator('table#statistics')
      await table.waitFor()
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(0)
      // The footer's total is not zero.
      await expect.poll(() => table.locator('tfoot').innerText()).toMatch(/[1-9]/)
      await checkScreen(page, 'demo-history-statistics-en')
    }))

  it('a resident (English) reads an account statement with the collected months', () =>
    journey('resident', async (_context, page) => {
      await signIn(page, 'beboer03@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Account statement', exact: true }).click()
      const statement = page.locator('#account-statement')
      await statement.waitFor({ timeout: 20_000 })
      await expect.poll(() => statement.locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
      await checkScreen(page, 'demo-history-account-statement-en')
    }))
})
