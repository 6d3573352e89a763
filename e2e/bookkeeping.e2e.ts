/**
 * Bookkeeping journey (docs/BOOKKEEPING.md): the accountant (in Danish) sets an account in the account plan, exports
 * last month's journal as CSV (downloaded by the browser and read back: Danish decimals, the new
 * account), closes the month, and marking a payment dated in it in the debtors' dialog is then refused
 * there with the Danish message, the input kept.
 * The demo has no collected charges, so last month's history is written first the way billing
 * writes it (server/features/billing/charge-history.ts).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { monthRange, previousMonth } from '../shared/domain/bookkeeping'
import { readCsv } from '../shared/domain/bookkeeping-csv'
import { todayIso } from '../client/lib/format'
import { plusDays } from '../shared/domain/billing-period'
import { danish } from './harness'
import { checkScreen, journeySuite, signIn, openFromSidebar } from './journeys'

const { journey, serverRows, writeHistory } = journeySuite('bookkeeping', 37)

describe('bookkeeping journey', () => {
  it(
    'the accountant sets an account, exports the month as CSV, closes it, and a payment dated in it is refused',
    () =>
      journey('export-close', async (context, page) => {
        const month = previousMonth(todayIso())
        const { from } = monthRange(month)
        const failed = await writeHistory(async (w, db) => {
          const agreements = db.prepare<[], { id: string }>("SELECT id FROM agreements WHERE status = 'ACCEPTED' ORDER BY external_seq").all()
          for (const [i, a] of agreements.entries())
            await w.charge({
              agreementId: a.id,
              paymentDate: `${month}-0${1 + (i % 9)}`,
              kind: 'ONE_TIME',
              lines: [
                { type: 'COMMON_EXPENSES', amount: 350_000 + i },
                { type: 'HEAT', amount: 65_050 },
              ],
            })
          return await w.charge({
            agreementId: agreements[0]!.id,
            paymentDate: `${month}-20`,
            kind: 'ONE_TIME',
            status: 'FAILED',
            lines: [{ type: 'HEAT', amount: 10_000 }],
          })
        })
        const collected = serverRows<{ n: number }>("SELECT COUNT(*) AS n FROM invoices WHERE status = 'EXECUTED' AND payment_date LIKE ?", `${month}-%`)[0]!.n

        await signIn(page, 'kasserer@solgaarden.dk')
        await openFromSidebar(page, danish('Bookkeeping'))

        // The account plan: heating to 1025.
        await page.getByRole('link', { name: danish('Account plan') }).click()
        await page.getByRole('heading', { level: 1, name: danish('Account plan') }).waitFor()
        const heatAccount = page.getByLabel(danish('{label}: account').replace('{label}', danish('Heating')))
        await expect.poll(() => heatAccount.inputValue()).toBe('1020')
        await heatAccount.fill('1025')
        await page.getByRole('button', { name: danish('Save account plan') }).click()
        await page.getByText(danish('The account plan is saved.')).waitFor()
        await checkScreen(page, 'bookkeeping-accounts-da')

        // Last month's journal (the default period), only entries not yet exported.
        await page.getByRole('link', { name: danish('Back to bookkeeping') }).click()
        const totals = page.getByRole('table', { name: danish('Totals per account for the period') })
        await totals.waitFor({ timeout: 20_000 })
        await expect.poll(() => totals.getByRole('row', { name: /^1025 / }).count()).toBe(1)
        await checkScreen(page, 'bookkeeping-da')

        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: danish('Export CSV') }).click()])
        expect(download.suggestedFilename()).toBe(`bogfoering-${from}-${monthRange(month).to}.csv`)
        const bytes = readFileSync((await download.path())!)
        expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
        const rows = readCsv(bytes.toString('utf8'))
        expect(rows[0]).toEqual(['Dato', 'Bilag', 'Konto', 'Modkonto', 'Momskode', 'Beløb', 'Tekst', 'Eksporteret før'])
        const heat = rows.slice(1).filter((r) => r[2] === '1025')
        expect(heat).toHaveLength(collected)
        expect(heat.every((r) => r[5] === '-650,50' && r[3] === '5820')).toBe(true)
        expect(rows.slice(1).every((r) => r[0]!.endsWith(`-${month.slice(5, 7)}-${month.slice(0, 4)}`))).toBe(true)
        await page.getByText(new RegExp(`^${danish('Exported: {fileName} ({count} new vouchers marked as exported).').split(':')[0]}:`)).waitFor()
        // Exported entries are marked: "only new" now finds none.
        await page.getByText(danish('No entries in this period.')).waitFor({ timeout: 20_000 })
        // Nothing new to export as CSV now: its button is off and says why; the xlsx keeps its own marks (decision 0079).
        await page.getByText(danish('Nothing new to export as CSV: every entry of this period has been exported as CSV already.')).waitFor()
        await expect.poll(() => page.getByRole('button', { name: danish('Export CSV') }).isDisabled()).toBe(true)
        await expect.poll(() => page.getByRole('button', { name: danish('Export xlsx') }).isDisabled()).toBe(false)
        await checkScreen(page, 'bookkeeping-nothing-new-da')

        // Close the month, after the confirmation that says what it means.
        await page.getByRole('button', { name: danish('Close month…') }).click()
        const dialog = page.getByRole('dialog')
        await dialog.getByText(/En lukket måned kan ikke genåbnes\./).waitFor()
        await checkScreen(page, 'bookkeeping-close-da')
        await dialog.getByRole('button', { name: new RegExp(`^${danish('Close {name}').replace('{name}', '')}`) }).click()
        await page.getByRole('heading', { level: 3, name: danish('Closed months') }).waitFor()
        await expect.poll(() => page.locator('.bookkeeping-closed li').count()).toBe(1)
        expect(serverRows<{ month: string }>('SELECT month FROM bookkeeping_closed_months')).toEqual([{ month }])

        // Marking last month's failed invoice paid, in the debtors' dialog: a future date is refused at
        // the field; a day in the closed month is refused by the server, in Danish, and the input stays.
        const number = serverRows<{ number: number }>('SELECT number FROM invoices WHERE id = ?', failed.invoiceId)[0]!.number
        await openFromSidebar(page, danish('Debtors'))
        const markLabel = danish('Mark paid <0>invoice {number}</0>')
          .replace(/<\/?0>/g, '')
          .replace('{number}', String(number))
        const mark = page.getByRole('button', { name: new RegExp(`^${markLabel}$`) })
        await mark.waitFor({ timeout: 20_000 })
        await mark.click()
        const markDialog = page.getByRole('dialog')
        await markDialog.getByLabel(danish('How was it paid?')).fill('Bankoverførsel')
        const paidOn = markDialog.getByLabel(danish('Date paid'))
        expect(await paidOn.inputValue()).toBe(todayIso())
        await paidOn.fill(plusDays(todayIso(), 1))
        await markDialog.getByRole('button', { name: danish('Mark as paid') }).click()
        await markDialog.getByText(danish('The payment date cannot be in the future')).waitFor()
        await paidOn.fill(`${month}-25`)
        await markDialog.getByRole('button', { name: danish('Mark as paid') }).click()
        const closedMessage = danish('The books for this month are closed, so this cannot change. Record a correction in an open month instead.')
        expect(closedMessage).toMatch(/^Bogføringen for denne måned er lukket/)
        await markDialog.getByText(closedMessage).waitFor()
        expect(await paidOn.inputValue()).toBe(`${month}-25`)
        expect(await markDialog.getByLabel(danish('How was it paid?')).inputValue()).toBe('Bankoverførsel')
        await checkScreen(page, 'bookkeeping-mark-paid-refused-da')
        expect(serverRows<{ settlement: string | null }>('SELECT settlement FROM invoices WHERE id = ?', failed.invoiceId)).toEqual([{ settlement: null }])
      }),
    180_000,
  )

  it('the administrator sees the journal in English', () =>
    journey('english', async (context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      await page.goto('/bookkeeping')
      await page.getByRole('heading', { level: 1, name: 'Bookkeeping' }).waitFor()
      await page.getByRole('heading', { level: 2, name: 'Journal' }).waitFor({ timeout: 20_000 })
      await checkScreen(page, 'bookkeeping-en')
      await page.goto('/bookkeeping/accounts')
      await page.getByRole('button', { name: 'Save account plan' }).waitFor({ timeout: 20_000 })
      await checkScreen(page, 'bookkeeping-accounts-en')
    }))
})
