/**
 * Lending (docs/decisions/0064-lending.md), the association's items and their deposit: the chairman edits the
 * association's drill (a deposit over 5,000 kr. is refused); a neighbour (Mikkel, Danish) asks to
 * borrow an item with a 200 kr. deposit, the administration accepts, changes the contract's dates
 * and condition before both confirm, and the deposit is charged through Vipps MobilePay on
 * confirmation; collected, it waits for the handover, which can only be recorded from the day
 * before the first day; returned with damage, the administration refunds part of it. Every screen
 * is axe-clean and fits 375 px (screenshots under test-results/). A member's own item:
 * lending.e2e.ts.
 *
 * Each test starts from its own state: an item of its own (its own title) and the loan brought
 * through the API to the step the test begins at.
 */
import { describe, expect, it } from 'vitest'
import { checkScreen, journeySuite, signIn } from './journeys'
import { dayFromToday, lendingApi } from './lending-state'

const { suite, clientIp, journey, serverRows, tr, api, tokenOf, emulator } = journeySuite('lending-deposit', 40)
const state = lendingApi({ api, tokenOf, serverRows })

const DAY = 86_400_000
const BORROWER = 'beboer04@solgaarden.dk'
const ADMIN = 'admin@solgaarden.dk'
const CHAIRMAN = 'formand@solgaarden.dk'

const chargeOf = (loanId: string) =>
  serverRows<{ status: string; amount_ore: number; vipps_charge_id: string | null }>(
    'SELECT c.status, c.amount_ore, c.vipps_charge_id FROM charges c JOIN loans l ON l.deposit_charge_id = c.id WHERE l.id = ?',
    loanId,
  )[0]

/** An item of the association with a 200 kr. deposit, lent by its administration. */
const associationItem = (title: string) => state.item(ADMIN, { lender: 'ASSOCIATION', title, rules: 'Rens den efter brug.', depositOre: 20_000 })

/**
 * A loan of a new item of the association to Mikkel from `from` to `to`, confirmed by both, its
 * deposit collected: sent to Vipps MobilePay by the server's job, then two days pass on the
 * emulator's clock (which billing follows) and the charge is taken.
 */
async function collectedLoan(title: string, from: string, to: string): Promise<string> {
  const loanId = await state.loanTo('CONFIRMED', { itemId: await associationItem(title), lender: ADMIN, borrower: BORROWER, from, to })
  expect(chargeOf(loanId)).toMatchObject({ amount_ore: 20_000 })
  // The job sends it within 5 s and the emulator takes it within seconds, when the machine is not busy.
  await expect.poll(() => chargeOf(loanId)?.vipps_charge_id ?? null, { timeout: 40_000 }).not.toBeNull()
  await emulator('clock', { advanceMs: 2 * DAY })
  await expect.poll(() => chargeOf(loanId)?.status, { timeout: 40_000 }).toBe('EXECUTED')
  return loanId
}

describe('lending: the association’s items and their deposit', () => {
  it('the administration edits the association’s drill: a deposit over 5,000 kr. is refused, 200 kr. and new rules are kept', async () => {
    await journey('the administration edits the association’s drill', async (_context, page) => {
      const t = tr(CHAIRMAN)
      await signIn(page, CHAIRMAN)
      await page.goto('/lending')
      // The demo association's own drill.
      await page
        .locator('.listing-card')
        .filter({ hasText: t('Lent by the association') })
        .getByRole('link', { name: 'Boremaskine' })
        .click()
      await page.getByRole('heading', { name: 'Boremaskine', level: 1 }).waitFor()
      await page.getByRole('link', { name: t('Edit item') }).click()
      await page.getByRole('heading', { name: t('Edit item'), level: 1 }).waitFor()
      await page.getByLabel(t('Deposit (DKK, optional)')).fill('99999')
      await page.getByRole('button', { name: t('Save item') }).click()
      await page.getByText(t('The deposit must be between DKK 1 and DKK 5,000.')).waitFor()
      await checkScreen(page, 'lending-item-edit-da')
      await page.getByLabel(t('Deposit (DKK, optional)')).fill('200')
      await page.getByLabel(t('Rules'), { exact: true }).fill('Rens boret efter brug.')
      await page.getByRole('button', { name: t('Save item') }).click()
      await page.getByRole('heading', { name: 'Boremaskine', level: 1 }).waitFor()
      await page.getByText('Rens boret efter brug.').waitFor()
    })
    expect(
      serverRows<{ deposit_ore: number }>("SELECT deposit_ore FROM lending_items WHERE title = 'Boremaskine' AND rules = 'Rens boret efter brug.'"),
    ).toEqual([{ deposit_ore: 20_000 }])
  })

  it('request, accept, a change of the contract before both confirm again: the deposit is charged on confirmation', async () => {
    const title = 'Slibemaskine'
    await associationItem(title)
    let loanId = ''
    await journey('request, accept and confirm: the deposit is charged', async (context, adminPage) => {
      const tb = tr(BORROWER)
      const ta = tr(ADMIN)
      const other = await context
        .browser()!
        .newContext({ baseURL: suite.server.url, viewport: { width: 1280, height: 900 }, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const page = await other.newPage()
        await signIn(page, BORROWER)
        await page.goto('/lending')
        await page
          .locator('.listing-card')
          .filter({ hasText: tb('Lent by the association') })
          .getByRole('link', { name: title })
          .click()
        await page.getByRole('heading', { name: title, level: 1 }).waitFor()
        await page.getByLabel(tb('From'), { exact: true }).fill(dayFromToday(5))
        await page.getByLabel(tb('To (return date)')).fill(dayFromToday(6))
        await page.getByRole('button', { name: tb('Send request') }).click()
        await page.getByText(tb('Your request is waiting for the lender’s answer.')).waitFor()
        loanId = page.url().split('/lending/loans/')[1]!

        // The administration answers for the association.
        await signIn(adminPage, ADMIN)
        await adminPage.goto(`/lending/loans/${loanId}`)
        await adminPage.getByRole('button', { name: ta('Accept request') }).click()
        await expect.poll(() => state.loan(loanId)?.status).toBe('ACCEPTED')
        // Before both confirm, the administration moves the return date a day and describes the item;
        // the screen says beforehand that both confirm again.
        await adminPage.getByText(ta('Saving a change clears both confirmations: you and the borrower confirm the contract again.')).waitFor()
        await adminPage.getByLabel(ta('To (return date)')).fill(dayFromToday(7))
        await adminPage.getByLabel(ta('Condition on handover'), { exact: true }).fill('Som ny.')
        await checkScreen(adminPage, 'lending-loan-terms')
        await adminPage.getByRole('button', { name: ta('Save contract') }).click()
        await expect
          .poll(() => serverRows<{ to_date: string; condition_out: string }>('SELECT to_date, condition_out FROM loans WHERE id = ?', loanId)[0])
          .toEqual({ to_date: dayFromToday(7), condition_out: 'Som ny.' })
        await adminPage.getByRole('button', { name: ta('Confirm the contract') }).click()
        await adminPage.getByText(ta('You have confirmed the contract. Waiting for the borrower to confirm.')).waitFor()

        await page.reload()
        await page.getByRole('button', { name: tb('Confirm the contract') }).click()
        await page.locator('.listing-badges').getByText(tb('Contract confirmed'), { exact: true }).waitFor()
        // The deposit: one ONE_TIME charge of 200 kr on Mikkel's agreement, sent to Vipps MobilePay.
        expect(chargeOf(loanId)).toMatchObject({ amount_ore: 20_000 })
        await page.getByText(tb('Queued for Vipps MobilePay'), { exact: false }).waitFor()
        await checkScreen(page, 'lending-loan-deposit-queued-da')
      } finally {
        await other.close()
      }
    })
  })

  it('the deposit is collected through Vipps MobilePay; the handover waits until the day before the first day', async () => {
    // Starting in five days: recorded from the fourth.
    const loanId = await collectedLoan('Rystepudser', dayFromToday(5), dayFromToday(6))
    await journey('the handover waits until the day before the first day', async (_context, page) => {
      const t = tr(ADMIN)
      await signIn(page, ADMIN)
      await page.goto(`/lending/loans/${loanId}`)
      await page.getByText(t('Collected'), { exact: false }).first().waitFor()
      const reason = page.locator('#loan-handover-when')
      await reason.waitFor()
      expect(await reason.textContent()).toContain(t('The handover can be recorded from {date}.').split('{date}')[0]!.trim())
      expect(await page.getByRole('button', { name: t('Record handover') }).isDisabled()).toBe(true)
      await checkScreen(page, 'lending-handover-too-early')
    })
  })

  it('handed over the day before the first day, returned with damage: the administration refunds part of the deposit', async () => {
    // Starting tomorrow: the handover may be recorded today.
    const loanId = await collectedLoan('Hækkeklipper', dayFromToday(1), dayFromToday(2))
    await journey('handover, return with damage, and the administration refunds part of the deposit', async (_context, page) => {
      const t = tr(ADMIN)
      await signIn(page, ADMIN)
      await page.goto(`/lending/loans/${loanId}`)
      await page.getByText(t('Collected'), { exact: false }).first().waitFor()
      await page.getByRole('button', { name: t('Record handover') }).click()
      await page.locator('.listing-badges').getByText(t('Lent out'), { exact: true }).waitFor()
      await page.getByLabel(t('Condition on return')).fill('Klingen slinger.')
      await page.getByLabel(t('Damage (optional)')).fill('Klingen er skæv og skal skiftes.')
      await page.getByRole('button', { name: t('Record return') }).click()
      await page.getByRole('heading', { name: t('Settle the deposit') }).waitFor()
      await page.getByLabel(t('Refund to the borrower (DKK)')).fill('250')
      await page.getByRole('button', { name: t('Settle deposit') }).click()
      await page.locator('.field-error').first().waitFor()
      await checkScreen(page, 'lending-settle-deposit')
      await page.getByLabel(t('Refund to the borrower (DKK)')).fill('150')
      await page.getByRole('button', { name: t('Settle deposit') }).click()
      await page.getByRole('heading', { name: t('Settle the deposit') }).waitFor({ state: 'detached' })
    })
    const notes = serverRows<{ total_ore: number }>(
      "SELECT i.total_ore FROM invoices i JOIN loans l ON l.deposit_charge_id = i.charge_id WHERE l.id = ? AND i.kind = 'CREDIT_NOTE'",
      loanId,
    )
    expect(notes).toEqual([{ total_ore: 15_000 }])
  })
})
