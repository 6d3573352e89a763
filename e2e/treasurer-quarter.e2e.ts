/**
 * A treasurer's quarter, one association's quarter walked through in order on a fresh
 * demo start: the first month bills every accepted demo agreement (and fails), the second is
 * collected, and the failed month stays in the debtor overview; the accountant marks one paid
 * outside Vipps MobilePay with a note that shows on the invoice and refunds one chosen invoice line;
 * the administrator terminates an agreement with a last payment, which is charged once, in place of
 * the last regular period; a webhook is registered and removed on the association's payment
 * provider; the board member sees the agreements with no admin action. Screenshots at 375 and
 * 1280 px of the debtor overview, charges, invoice and statistics.
 *
 * The steps run in order and build on each other; the steps themselves are those of
 * debtors.e2e.ts, billing.e2e.ts, agreements.e2e.ts and companies.e2e.ts.
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
import { bearerTokenOf, journeySuite, markPaidOutsideAsAccountant, refundOneLineAsAccountant, signIn, snapBoth } from './journeys'

const { suite, clientIp, journey, serverRows, emulator } = journeySuite('treasurer-quarter', 17)

const DAY = 24 * 3600 * 1000
const DEMO_SEQS = [1001, 1002, 1003, 1004, 1005, 1006]

type ChargeRow = {
  id: string
  agreement_id: string
  kind: string
  status: string
  due: string
  invoice_id: string
  vipps_charge_id: string | null
  amount_ore: number
}
const charges = () => serverRows<ChargeRow>('SELECT * FROM charges ORDER BY due, rowid')
const chargesOfAgreement = (agreementId: string) => charges().filter((c) => c.agreement_id === agreementId)
type AgreementRow = {
  id: string
  external_seq: number
  member: string
  status: string
  vipps_agreement_id: string | null
  next_regular_payment_date: string | null
  termination_date: string | null
}
const agreementOf = (seq: number) =>
  serverRows<AgreementRow>(
    'SELECT a.id, a.external_seq, a.status, a.vipps_agreement_id, a.next_regular_payment_date, a.termination_date, u.full_name AS member FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE a.external_seq = ?',
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
  charge_id: string | null
}
const invoiceOf = (chargeId: string) => serverRows<InvoiceRow>("SELECT * FROM invoices WHERE charge_id = ? AND kind = 'INVOICE'", chargeId)[0]!
const acceptedIds = () => serverRows<{ id: string }>("SELECT id FROM agreements WHERE status = 'ACCEPTED' ORDER BY id").map((r) => r.id)
const accepted = () => acceptedIds().length

/** A month passes on the emulator's clock (billing follows it): every accepted agreement is charged, and Vipps tries to collect. */
async function monthPasses(expectedStatus: 'FAILED' | 'EXECUTED') {
  const before = charges().map((c) => c.id)
  const fresh = () => charges().filter((c) => !before.includes(c.id))
  if (expectedStatus === 'FAILED') await emulator('fail-next-charges', { count: accepted() })
  await emulator('clock', { advanceMs: 31 * DAY })
  await expect.poll(() => fresh().length, { timeout: 40_000 }).toBe(accepted())
  await expect.poll(() => charges().every((c) => c.vipps_charge_id), { timeout: 40_000 }).toBe(true)
  await emulator('clock', { advanceMs: 2 * DAY })
  await expect.poll(() => fresh().every((c) => c.status === expectedStatus), { timeout: 40_000 }).toBe(true)
  return fresh()
}

/** The failed month-1 charge of a demo agreement. */
const failedOf = (seq: number) => charges().find((c) => c.agreement_id === agreementOf(seq).id && c.status === 'FAILED')!

/** The first day of the month after the one a date (YYYY-MM-DD) falls in. */
function firstOfNextMonth(date: string) {
  const [y, m] = date.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`
}

describe("a treasurer's quarter", () => {
  it(
    '(1) demo start: every demo agreement is accepted at Vipps; month 1 bills every accepted one (and fails), month 2 is collected',
    () =>
      journey('months', async (_context, page) => {
        // The demo agreements shown as Accepted are accepted at Vipps MobilePay too (decision 0036).
        for (const seq of DEMO_SEQS) expect(agreementOf(seq)).toMatchObject({ status: 'ACCEPTED', vipps_agreement_id: expect.any(String) })
        const state = (await (await fetch(`${suite.server.url}/vipps-emulator/_control/state`, { headers: clientIp() })).json()) as Record<string, unknown>
        expect(JSON.stringify(state)).toContain(agreementOf(1001).vipps_agreement_id!)
        expect(charges()).toHaveLength(0)

        const month1 = await monthPasses('FAILED')
        // Every accepted agreement got exactly one charge with its invoice.
        expect(month1.map((c) => c.agreement_id).sort()).toEqual(acceptedIds())
        for (const c of month1) expect(invoiceOf(c.id), `invoice of charge ${c.id}`).toBeDefined()
        for (const seq of DEMO_SEQS) expect(month1.some((c) => c.agreement_id === agreementOf(seq).id)).toBe(true)

        const month2 = await monthPasses('EXECUTED')
        expect(month2.map((c) => c.agreement_id).sort()).toEqual(acceptedIds())

        // None of them says it is not collected.
        await signIn(page, 'admin@solgaarden.dk')
        await page.goto('/agreements/status/ACCEPTED')
        await page.getByRole('link', { name: agreementOf(1001).member }).waitFor({ timeout: 20_000 })
        expect(await page.getByText(/Not collected/).count()).toBe(0)
      }),
    200_000,
  )

  it('(2) the failed month stays in the debtor overview after the paid one; marked paid outside Vipps, the note shows on the invoice', () =>
    journey('debtors', async (_context, page) => {
      const emma = agreementOf(1001)
      const failed = failedOf(1001)
      const invoice = invoiceOf(failed.id)
      // Month 1 failed, month 2 was collected; a later period's charge may already be created
      // (billing runs ahead of the due date, so whether it has depends on the day the suite runs).
      expect(
        chargesOfAgreement(emma.id)
          .filter((c) => c.status !== 'CREATED')
          .map((c) => c.status),
      ).toEqual(['FAILED', 'EXECUTED'])

      // The accountant (Danish) finds every failed month under Restancer.
      await markPaidOutsideAsAccountant(page, {
        member: emma.member,
        invoiceNumber: invoice.number,
        acceptedAgreements: accepted(),
        note: 'Bankoverførsel 3. januar',
        snapshot: 'quarter-debtors-da',
      })
      await expect.poll(() => invoiceOf(failed.id).settlement).toBe('PAID_OUTSIDE')
      expect(invoiceOf(failed.id)).toMatchObject({ settlement_note: 'Bankoverførsel 3. januar', status: 'FAILED' })
      // The others stay in the overview.
      expect(await page.getByRole('row').count()).toBe(accepted())

      await page.goto(`/invoices/${invoice.id}`)
      await page.getByText(danish('Paid outside Vipps MobilePay'), { exact: true }).waitFor({ timeout: 20_000 })
      await page.getByText('Bankoverførsel 3. januar').waitFor()
      await snapBoth(page, 'quarter-invoice-paid-outside-da')
    }))

  it("(3) a refund of one chosen invoice line makes a credit note with that line's own description", () =>
    journey('refund-line', async (_context, page) => {
      const emma = agreementOf(1001)
      const paid = chargesOfAgreement(emma.id).find((c) => c.status === 'EXECUTED' && c.kind === 'REGULAR')!
      await refundOneLineAsAccountant(page, serverRows, { agreementId: emma.id, chargeId: paid.id, snapshot: 'quarter-' })
    }))

  it(
    '(4) terminated with a last payment, an agreement is charged once more: one final charge, no regular charge for the last period',
    () =>
      journey('terminate', async (_context, page) => {
        const leaving = agreementOf(1004)
        const next = leaving.next_regular_payment_date!
        expect(next).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        const end = firstOfNextMonth(next)
        const chargesBefore = chargesOfAgreement(leaving.id)

        await signIn(page, 'admin@solgaarden.dk')
        await page.goto(`/agreements/${leaving.id}`)
        await page.getByRole('heading', { level: 1, name: /Agreement \d+/ }).waitFor({ timeout: 20_000 })
        await page.getByRole('button', { name: 'Terminate', exact: true }).click()
        const dialog = page.getByRole('dialog', { name: 'Terminate agreement' })
        await dialog.getByLabel('Make last payment').check()
        await dialog.getByLabel('Termination date is set to:').fill(end)
        await dialog.getByText(/^Last payment: .* It takes the place of the regular payment for those days\.$/).waitFor()
        await dialog.getByRole('button', { name: 'Terminate', exact: true }).click()
        await dialog.waitFor({ state: 'hidden' })
        await expect.poll(() => agreementOf(1004).termination_date, { timeout: 20_000 }).toBe(end)

        // A month passes: the others are billed for the period, this one only by its last payment.
        await emulator('clock', { advanceMs: 31 * DAY })
        const others = acceptedIds().filter((id) => id !== leaving.id)
        await expect.poll(() => others.every((id) => chargesOfAgreement(id).some((c) => c.kind === 'REGULAR' && c.due >= next)), { timeout: 40_000 }).toBe(true)
        await expect.poll(() => chargesOfAgreement(leaving.id).filter((c) => c.kind === 'FINAL').length, { timeout: 40_000 }).toBe(1)
        // Only once Vipps has it: sent after the clock moves, it would be dated from the provider's new today.
        await expect.poll(() => chargesOfAgreement(leaving.id).find((c) => c.kind === 'FINAL')?.vipps_charge_id ?? null, { timeout: 40_000 }).not.toBeNull()
        // Vipps collects it on its due date (3 days before the end): move the provider's clock there.
        // Computed, not a fixed number of days: the demo's dates follow the day the suite runs.
        const finalDue = chargesOfAgreement(leaving.id).find((c) => c.kind === 'FINAL')!.due
        const vippsNow = Date.parse(((await (await fetch(`${suite.server.url}/vipps-emulator/_control/clock`)).json()) as { now: string }).now)
        await emulator('clock', { advanceMs: Math.max(DAY, Date.parse(`${finalDue}T12:00:00Z`) + DAY - vippsNow) })
        await expect.poll(() => chargesOfAgreement(leaving.id).find((c) => c.kind === 'FINAL')?.status, { timeout: 40_000 }).toBe('EXECUTED')

        const after = chargesOfAgreement(leaving.id).filter((c) => !chargesBefore.some((b) => b.id === c.id))
        expect(after.map((c) => c.kind)).toEqual(['FINAL'])
        expect(after[0]!.due < end).toBe(true)
        expect(chargesOfAgreement(leaving.id).filter((c) => c.kind === 'REGULAR' && c.due >= next)).toEqual([])
        const finalInvoice = invoiceOf(after[0]!.id)
        expect(finalInvoice).toBeDefined()

        // The charges page shows it once, with the others.
        await page.goto(`/charges/${leaving.id}`)
        await page
          .getByRole('link', { name: /^Refund/ })
          .first()
          .waitFor({ timeout: 20_000 })
        await snapBoth(page, 'quarter-charges-final-en')
        await page.goto(`/invoices/${finalInvoice.id}`)
        await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 20_000 })
        await snapBoth(page, 'quarter-invoice-final-en')
      }),
    200_000,
  )

  it("(5) a webhook is registered and removed on the association's payment provider, here and at Vipps", () =>
    journey('webhook', async (_context, page) => {
      const company = serverRows<{ id: string }>('SELECT c.id FROM companies c JOIN agreements a ON a.company_id = c.id WHERE a.external_seq = 1001')[0]!
      const provider = serverRows<{ id: string }>('SELECT id FROM payment_providers WHERE company_id = ? ORDER BY created_at', company.id)[0]!
      const URL = 'https://solgaarden.example/hooks/vipps'
      const hooksAtVipps = async () => {
        const state = (await (await page.request.get('/vipps-emulator/_control/state')).json()) as { hooks: Record<string, { url: string }> }
        return Object.values(state.hooks).filter((h) => h.url === URL).length
      }
      await signIn(page, 'superadmin@boligkasse.dk')
      await page.goto(`/company/${company.id}/payment-provider/${provider.id}`)
      await page.getByLabel('Webhook URL').waitFor({ timeout: 20_000 })
      await page.getByLabel('Webhook URL').fill(URL)
      await page.getByRole('button', { name: 'Add webhook' }).click()
      await page.getByText('Webhook added successfully!').waitFor()
      await page.getByRole('rowheader', { name: /solgaarden\.example/ }).waitFor()
      expect(await hooksAtVipps()).toBe(1)

      await page.getByRole('button', { name: /^Remove https:\/\/solgaarden\.example/ }).click()
      const dialog = page.getByRole('dialog', { name: 'Remove webhook' })
      await dialog.getByText(`Do you really want to remove the webhook ${URL}?`).waitFor()
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
      await page.getByText('Webhook removed successfully!').waitFor()
      await page.getByRole('rowheader', { name: /solgaarden\.example/ }).waitFor({ state: 'detached' })
      expect(await hooksAtVipps()).toBe(0)
    }))

  it('(6) the board member sees the agreements with no admin action, and the server refuses them', () =>
    journey('board-member', async (_context, page) => {
      const emma = agreementOf(1001)
      await signIn(page, 'bestyrelse@solgaarden.dk')
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Agreements') })
        .click()
      await page.getByRole('link', { name: emma.member }).waitFor({ timeout: 20_000 })
      await expect.poll(() => page.getByRole('link', { name: danish('Add agreement') }).count()).toBe(0)
      const filters = page.getByRole('group', { name: danish('Filter by status') }).getByRole('button')
      expect(await filters.allInnerTexts()).toEqual([danish('All')])

      await page.getByRole('link', { name: emma.member }).click()
      await page.getByRole('heading', { level: 1, name: new RegExp(danish('Agreement')) }).waitFor()
      await page.getByRole('link', { name: danish('Payments') }).waitFor()
      for (const name of [danish('Edit'), danish('Request One Off Payment')]) expect(await page.getByRole('link', { name, exact: true }).count()).toBe(0)
      expect(await page.getByRole('button', { name: danish('Terminate'), exact: true }).count()).toBe(0)
      await snapBoth(page, 'quarter-agreement-boardmember')

      const token = await bearerTokenOf(page)
      const target = agreementOf(1005)
      const res = await page.request.post(`/api/agreement/${target.id}/cancel`, {
        headers: { Authorization: `Bearer ${token}` },
        data: { terminationDate: '2027-12-01', finalPaymentRequired: false },
      })
      expect(res.status()).toBe(403)
      const oneOff = await page.request.post(`/api/agreement/${target.id}/requestOneTimeCharge`, {
        headers: { Authorization: `Bearer ${token}` },
        data: { amount: 10_000, description: 'Nøgle' },
      })
      expect(oneOff.status()).toBe(403)
      expect(agreementOf(1005)).toMatchObject({ status: 'ACCEPTED', termination_date: null })
    }))
})
