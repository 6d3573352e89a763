/**
 * Journeys of "unpaid stays visible" (decision 0042): the demo association's month-1 charges fail, month 2
 * is collected, and the failed month stays in the debtor overview; the accountant marks one paid
 * outside Vipps MobilePay with a note that then shows on the invoice; the administrator collects
 * another again (a new charge on the same invoice) and writes a third off; a refund of one chosen
 * invoice line makes a credit note whose line carries that line's own description. Screenshots at
 * 375 and 1280 px in both languages of the debtor overview, charges, invoice and statistics.
 *
 * The journeys run in order and build on each other (one association's quarter).
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
import { journeySuite, markPaidOutsideAsAccountant, refundOneLineAsAccountant, signIn, snapBoth } from './journeys'

const { journey, serverRows, emulator } = journeySuite('debtors', 16)

const DAY = 24 * 3600 * 1000

type ChargeRow = { id: string; agreement_id: string; kind: string; status: string; due: string; invoice_id: string; vipps_charge_id: string | null }
const charges = () => serverRows<ChargeRow>('SELECT * FROM charges ORDER BY due')
type AgreementRow = { id: string; external_seq: number; member: string }
const agreementOf = (seq: number) =>
  serverRows<AgreementRow>(
    'SELECT a.id, a.external_seq, u.full_name AS member FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE a.external_seq = ?',
    seq,
  )[0]!
type InvoiceRow = {
  id: string
  number: number
  kind: string
  status: string
  settlement: string | null
  settlement_note: string | null
  credited_invoice_id: string | null
  description: string
}
const invoiceOf = (chargeId: string) => serverRows<InvoiceRow>("SELECT * FROM invoices WHERE charge_id = ? AND kind = 'INVOICE'", chargeId)[0]!
const accepted = () => serverRows<{ n: number }>("SELECT count(*) AS n FROM agreements WHERE status = 'ACCEPTED'")[0]!.n

/** A month passes on the emulator's clock (billing follows it): every accepted agreement is charged, and Vipps tries to collect. */
async function monthPasses(expectedStatus: 'FAILED' | 'EXECUTED') {
  const before = charges().length
  if (expectedStatus === 'FAILED') await emulator('fail-next-charges', { count: accepted() })
  await emulator('clock', { advanceMs: 31 * DAY })
  await expect.poll(() => charges().length - before, { timeout: 40_000 }).toBe(accepted())
  await expect.poll(() => charges().every((c) => c.vipps_charge_id), { timeout: 40_000 }).toBe(true)
  await emulator('clock', { advanceMs: 2 * DAY })
  await expect
    .poll(
      () =>
        charges()
          .slice(before)
          .every((c) => c.status === expectedStatus),
      { timeout: 40_000 },
    )
    .toBe(true)
}

/** The failed month-1 charge of a demo agreement. */
const failedOf = (seq: number) => charges().find((c) => c.agreement_id === agreementOf(seq).id && c.status === 'FAILED')!

describe('debtor journeys', () => {
  it(
    '(1) a failed month stays in the debtor overview after the next month was paid; marked paid outside Vipps, the note shows on the invoice',
    () =>
      journey('paid-outside', async (_context, page) => {
        await monthPasses('FAILED')
        await monthPasses('EXECUTED')
        const emma = agreementOf(1001)
        const failed = failedOf(1001)
        const invoice = invoiceOf(failed.id)
        // The later month was collected for every agreement …
        expect(
          charges()
            .filter((c) => c.agreement_id === emma.id)
            .map((c) => c.status),
        ).toEqual(['FAILED', 'EXECUTED'])

        // … and yet the accountant (Danish) finds the failed one under Restancer.
        await markPaidOutsideAsAccountant(page, {
          member: emma.member,
          invoiceNumber: invoice.number,
          acceptedAgreements: accepted(),
          note: 'Bankoverførsel 3. januar',
          snapshot: 'debtors-da',
        })
        await expect.poll(() => invoiceOf(failed.id).settlement).toBe('PAID_OUTSIDE')
        expect(invoiceOf(failed.id)).toMatchObject({ settlement_note: 'Bankoverførsel 3. januar', status: 'FAILED' })

        // The invoice says so, with the note, to staff and (from the same synced copy) the member.
        await page.goto(`/invoices/${invoice.id}`)
        await page.getByText(danish('Paid outside Vipps MobilePay'), { exact: true }).waitFor({ timeout: 20_000 })
        await page.getByText('Bankoverførsel 3. januar').waitFor()
        await page.getByText(danish('Paid outside Vipps MobilePay. No further payment is required.')).waitFor()
        await snapBoth(page, 'invoice-paid-outside-da')

        // The agreement shows what is still open: nothing, for Emma.
        await page.goto(`/agreements/${emma.id}`)
        await page.getByText(danish('Open balance')).waitFor()
      }),
    200_000,
  )

  it('(2) the administrator collects one again (a new charge on the same invoice) and writes another off', () =>
    journey('retry-write-off', async (_context, page) => {
      const again = failedOf(1002)
      const off = failedOf(1003)
      const againInvoice = invoiceOf(again.id)
      const offInvoice = invoiceOf(off.id)
      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Debtors' }).click()
      await page.getByRole('row', { name: new RegExp(agreementOf(1002).member) }).waitFor({ timeout: 20_000 })
      await snapBoth(page, 'debtors-en')

      await page.getByRole('button', { name: `Collect again invoice ${againInvoice.number}` }).click()
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^Collect / })
        .click()
      await page.getByText(`Invoice ${againInvoice.number}: the new payment request was accepted.`, { exact: false }).waitFor()
      const retry = charges().find((c) => c.kind === 'ONE_TIME' && c.invoice_id === againInvoice.id)
      expect(retry).toBeDefined()
      // Under way: no second attempt can be started.
      const againRow = page.getByRole('row', { name: new RegExp(agreementOf(1002).member) })
      await expect.poll(() => againRow.innerText()).toContain('New attempt under way')
      expect(await againRow.getByRole('button', { name: /^Collect again/ }).isDisabled()).toBe(true)

      await page.getByRole('button', { name: `Write off invoice ${offInvoice.number}` }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: /^Write off / }).click()
      await dialog.getByText('Please enter a note').waitFor()
      await dialog.getByLabel('Reason').fill('Dødsbo uden midler')
      await dialog.getByRole('button', { name: /^Write off / }).click()
      await page.getByText(`Invoice ${offInvoice.number} is written off with credit note`, { exact: false }).waitFor()
      await expect.poll(() => invoiceOf(off.id).settlement).toBe('WRITTEN_OFF')
      const note = serverRows<InvoiceRow>("SELECT * FROM invoices WHERE credited_invoice_id = ? AND kind = 'CREDIT_NOTE'", offInvoice.id)
      expect(note).toHaveLength(1)
      expect(note[0]!.settlement).toBe('WRITTEN_OFF')

      // The retried invoice is collected by Vipps on its own clock: it leaves the overview as paid.
      await emulator('clock', { advanceMs: 2 * DAY })
      await expect.poll(() => invoiceOf(again.id).status, { timeout: 40_000 }).toBe('EXECUTED')
      await page.reload()
      await page.getByRole('heading', { level: 1, name: 'Debtors' }).waitFor()
      await againRow.waitFor({ state: 'detached', timeout: 20_000 })
    }))

  it("(3) a refund of one chosen invoice line makes a credit note with that line's own description", () =>
    journey('refund-line', async (_context, page) => {
      const emma = agreementOf(1001)
      const paid = charges().find((c) => c.agreement_id === emma.id && c.status === 'EXECUTED' && c.kind === 'REGULAR')!
      await refundOneLineAsAccountant(page, serverRows, { agreementId: emma.id, chargeId: paid.id, snapshot: '' })
    }))

  it('(4) English screens of the quarter: charges, invoice and statistics', () =>
    journey('english', async (_context, page) => {
      const emma = agreementOf(1001)
      await signIn(page, 'admin@solgaarden.dk')
      await page.goto(`/charges/${emma.id}`)
      await page
        .getByRole('link', { name: /^Refund/ })
        .first()
        .waitFor({ timeout: 20_000 })
      await snapBoth(page, 'charges-en')
      await page.goto(`/invoices/${invoiceOf(failedOf(1001).id).id}`)
      await page.getByText('Paid outside Vipps MobilePay', { exact: true }).waitFor({ timeout: 20_000 })
      await snapBoth(page, 'invoice-paid-outside-en')
      await page.goto('/statistics')
      await page.getByLabel('Start date').fill('2026-11-01')
      await page.getByLabel('End date').fill('2027-03-31')
      await page.locator('#statistics').waitFor({ timeout: 20_000 })
      await snapBoth(page, 'statistics-en')
    }))
})
