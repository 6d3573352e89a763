/**
 * Lending (docs/PRODUCT.md "Lending", decision 0064): a resident (Emma, English) lends her drill with a photo; a neighbour (Mikkel,
 * Danish) asks to borrow it, Emma accepts, and both confirm the contract, each in their own
 * browser; Emma records the handover; the day before the return date the reminder reaches Mikkel
 * in the app and by e-mail in Danish (its time is brought forward, as if the days had passed, and
 * the server's own job sends it); Emma records the return. A resident of another association
 * neither sees nor opens the drill. Emma edits her item's rules; the chairman edits the
 * association's drill, and the administration changes an accepted loan's dates before both
 * confirm. Every screen is axe-clean and fits 375 px (screenshots under test-results/).
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { latestMailTo } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { suite, clientIp, journey, serverRows, writeDb, tr, residentOfHavnehuset, emulator } = journeySuite('lending', 34)

const DAY = 86_400_000

const TITLE = 'Boremaskine'
const RULES = 'Lad batterierne op og rens borepatronen, før du afleverer den.'
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

/** A Copenhagen calendar date `days` from today. */
const dayFromToday = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date(Date.now() + days * 86_400_000))

const loanRow = (id: string) =>
  serverRows<{ status: string; lender_confirmed_at: string | null; borrower_confirmed_at: string | null; condition_back: string | null }>(
    'SELECT status, lender_confirmed_at, borrower_confirmed_at, condition_back FROM loans WHERE id = ?',
    id,
  )[0]

describe('lending', () => {
  it('a member lends a drill to a neighbour: request, accept, both confirm, handover, the return reminder, the return', async () => {
    const lender = 'beboer03@solgaarden.dk'
    const borrower = 'beboer04@solgaarden.dk'
    let itemId = ''
    let loanId = ''

    await journey('the lender lists the drill', async (_context: BrowserContext, page: Page) => {
      const t = tr(lender)
      await signIn(page, lender)
      await page.getByRole('link', { name: t('Lending'), exact: true }).click()
      await page.getByRole('heading', { name: t('Lending'), level: 1 }).waitFor()
      await page.getByRole('link', { name: t('Lend something') }).click()
      await page.getByRole('heading', { name: t('Lend something'), level: 1 }).waitFor()
      // Sent empty: what is missing, in the user's language.
      await page.getByRole('button', { name: t('Publish item') }).click()
      await page.getByText(t('Please enter what you lend')).waitFor()
      await page.getByLabel(t('Deposit (kr., optional)')).fill('99999')
      await page.getByRole('button', { name: t('Publish item') }).click()
      await page.getByText(t('The deposit must be between 1 kr. and 5,000 kr.')).waitFor()
      await checkScreen(page, 'lending-form-errors')
      await page.getByLabel(t('Deposit (kr., optional)')).fill('')
      await page.getByLabel(t('What do you lend?')).fill(TITLE)
      await page.getByLabel(t('Description'), { exact: true }).fill('Makita 18 V med to batterier.')
      await page.getByLabel(t('Rules'), { exact: true }).fill('Lad batterierne op, før du afleverer den.')
      await page.getByLabel(t('Where to pick it up')).fill('Nr. 14, 2. th.')
      await page.getByLabel(t('Photo (optional)')).setInputFiles({ name: 'bor.png', mimeType: 'image/png', buffer: PNG })
      await page.getByRole('button', { name: t('Publish item') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      itemId = page.url().split('/lending/item/')[1]!
      await expect
        .poll(() => serverRows<{ photo_id: string | null }>('SELECT photo_id FROM lending_items WHERE id = ?', itemId)[0]?.photo_id ?? null, {
          timeout: 10_000,
        })
        .not.toBeNull()
      await page.locator('img.listing-photo').waitFor()
      await checkScreen(page, 'lending-item-lender')

      // She edits it (through the outbox, If-Match): a missing title is refused; the new rules show.
      await page.getByRole('link', { name: t('Edit item') }).click()
      await page.getByRole('heading', { name: t('Edit item'), level: 1 }).waitFor()
      await page.getByLabel(t('What do you lend?')).fill('')
      await page.getByRole('button', { name: t('Save item') }).click()
      await page.getByText(t('Please enter what you lend')).waitFor()
      await checkScreen(page, 'lending-item-edit-errors')
      await page.getByLabel(t('What do you lend?')).fill(TITLE)
      await page.getByLabel(t('Rules'), { exact: true }).fill(RULES)
      await page.getByRole('button', { name: t('Save item') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      await page.getByText(RULES).waitFor()
      await expect.poll(() => serverRows<{ rules: string }>('SELECT rules FROM lending_items WHERE id = ?', itemId)[0]?.rules, { timeout: 10_000 }).toBe(RULES)
    })

    const from = dayFromToday(1)
    const to = dayFromToday(3)
    await journey('request, accept and confirm the contract in two browsers', async (context, lenderPage) => {
      const tl = tr(lender)
      const tb = tr(borrower)
      const other = await context
        .browser()!
        .newContext({ baseURL: suite.server.url, viewport: { width: 1280, height: 900 }, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const page = await other.newPage()
        await signIn(page, borrower)
        await page.getByRole('link', { name: tb('Lending'), exact: true }).click()
        await page.locator('.listing-card').filter({ hasText: 'Emma Hansen' }).waitFor()
        await checkScreen(page, 'lending-list-da')
        // The demo association lends a drill of its own; this is Emma's.
        await page.locator('.listing-card').filter({ hasText: 'Emma Hansen' }).getByRole('link', { name: TITLE }).click()
        await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
        await page.getByRole('table').waitFor()
        await checkScreen(page, 'lending-item-borrower-da')
        await page.getByLabel(tb('From'), { exact: true }).fill(from)
        await page.getByLabel(tb('To (return date)')).fill(to)
        await page.getByLabel(tb('Message to the lender (optional)')).fill('Skal hænge hylder op i weekenden.')
        await page.getByRole('button', { name: tb('Send request') }).click()
        await page.getByText(tb('Your request is waiting for the lender’s answer.')).waitFor()
        loanId = page.url().split('/lending/loans/')[1]!
        await expect.poll(() => loanRow(loanId)?.status, { timeout: 10_000 }).toBe('REQUESTED')
        await checkScreen(page, 'lending-loan-requested-da')

        // The lender is told, and accepts and confirms from the loan's page.
        await signIn(lenderPage, lender)
        await lenderPage.goto('/notifications')
        await lenderPage.getByText('Mikkel Andersen wants to borrow “Boremaskine”').first().waitFor()
        await lenderPage.goto(`/lending/loans/${loanId}`)
        await lenderPage.getByRole('button', { name: tl('Accept request') }).click()
        await expect.poll(() => loanRow(loanId)?.status, { timeout: 10_000 }).toBe('ACCEPTED')
        await lenderPage.getByRole('button', { name: tl('Confirm the contract') }).click()
        await lenderPage.getByText(tl('You have confirmed the contract. Waiting for the borrower to confirm.')).waitFor()
        await checkScreen(lenderPage, 'lending-loan-lender-confirmed')

        // The borrower confirms in their own browser: the contract is confirmed for both.
        await page.reload()
        await page.getByRole('button', { name: tb('Confirm the contract') }).click()
        await expect.poll(() => loanRow(loanId)?.status, { timeout: 10_000 }).toBe('CONFIRMED')
        await page.locator('.listing-badges').getByText(tb('Contract confirmed'), { exact: true }).waitFor()
        await lenderPage.reload()
        await lenderPage.locator('.listing-badges').getByText(tl('Contract confirmed'), { exact: true }).waitFor()
        expect(loanRow(loanId)).toMatchObject({ lender_confirmed_at: expect.any(String), borrower_confirmed_at: expect.any(String) })

        // The handover is recorded with the drill's condition.
        await lenderPage.getByLabel(tl('Condition on handover (optional)')).fill('Som ny, to fulde batterier.')
        await lenderPage.getByRole('button', { name: tl('Record handover') }).click()
        await expect.poll(() => loanRow(loanId)?.status, { timeout: 10_000 }).toBe('HANDED_OVER')
        await lenderPage.locator('.listing-badges').getByText(tl('Lent out'), { exact: true }).waitFor()
        await checkScreen(lenderPage, 'lending-loan-handed-over')
        // The calendar says who has it on which days.
        await page.goto(`/lending/item/${itemId}`)
        await page.getByRole('cell', { name: 'Dig' }).first().waitFor()
        await checkScreen(page, 'lending-item-booked-da')
      } finally {
        await other.close()
      }
    })
    expect(serverRows<{ kind: string }>('SELECT kind FROM loan_reminders WHERE loan_id = ? ORDER BY due_at', loanId).map((r) => r.kind)).toEqual([
      'DAY_BEFORE',
      'RETURN_DAY',
      'OVERDUE',
    ])

    // The day before the return date: the reminder's time has come (brought forward, as if the days
    // had passed); the server's `lending` job sends it once.
    const before = Date.now()
    writeDb((db) =>
      db.prepare("UPDATE loan_reminders SET due_at = ? WHERE loan_id = ? AND kind = 'DAY_BEFORE'").run(new Date(Date.now() - 60_000).toISOString(), loanId),
    )
    await expect
      .poll(() => serverRows<{ sent_at: string | null }>("SELECT sent_at FROM loan_reminders WHERE loan_id = ? AND kind = 'DAY_BEFORE'", loanId)[0]?.sent_at, {
        timeout: 20_000,
      })
      .toBeTruthy()
    // The newest e-mail to the borrower (the handover's may still be on its way when the time is moved).
    await expect
      .poll(async () => (await latestMailTo(suite.server.mailDir, borrower, before)).subject, { timeout: 20_000 })
      .toBe('Påmindelse: aflever “Boremaskine” i morgen')
    const mail = await latestMailTo(suite.server.mailDir, borrower, before)
    expect(mail.text).toContain('Hej Mikkel Andersen,')
    expect(mail.text).toContain(`${Number(to.slice(8))}.${Number(to.slice(5, 7))}.${to.slice(0, 4)}`)
    expect(mail.text).toContain(`/lending/loans/${loanId}`)

    await journey('the borrower sees the reminder and their loan', async (_context, page) => {
      const t = tr(borrower)
      await signIn(page, borrower)
      await page.goto('/notifications')
      await page.getByText('Påmindelse: aflever “Boremaskine” i morgen').first().waitFor()
      await page.goto('/lending/loans')
      await page.getByRole('heading', { name: t('I borrow'), exact: true }).waitFor()
      await page.locator('.lending-loans').getByText(TITLE).first().waitFor()
      await checkScreen(page, 'lending-my-loans-da')
    })

    await journey('the lender records the return', async (_context, page) => {
      const t = tr(lender)
      await signIn(page, lender)
      await page.goto(`/lending/loans/${loanId}`)
      await page.getByRole('button', { name: t('Record return') }).click()
      await page.getByText(t('Please describe the condition of the item')).waitFor()
      await page.getByLabel(t('Condition on return')).fill('Fin, batterierne opladet.')
      await page.getByRole('button', { name: t('Record return') }).click()
      await expect.poll(() => loanRow(loanId)?.status, { timeout: 10_000 }).toBe('RETURNED')
      await page.locator('.listing-badges').getByText(t('Returned'), { exact: true }).waitFor()
      await page.goto(`/lending/item/${itemId}`)
      await page.getByRole('heading', { name: t('History') }).waitFor()
      await page.locator('.lending-loans').getByText(t('Returned'), { exact: true }).waitFor()
      await checkScreen(page, 'lending-item-history')
    })
    expect(loanRow(loanId)).toMatchObject({ status: 'RETURNED', condition_back: 'Fin, batterierne opladet.' })

    const outsider = 'beboer12@solgaarden.dk'
    residentOfHavnehuset(outsider, 9034)
    await journey('another association', async (_context, page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      await page.goto('/lending')
      await page.getByRole('heading', { name: t('Lending'), level: 1 }).waitFor()
      expect(await page.getByText('Emma Hansen').count()).toBe(0)
      await page.goto(`/lending/item/${itemId}`)
      await page.getByText(t('Item not found.')).first().waitFor()
      const status = await page.evaluate(
        async ([item, loan]) => {
          const token = JSON.parse(localStorage.getItem('boligkasse.session')!).token as string
          const headers = { Authorization: `Bearer ${token}` }
          return [(await fetch(`/api/lending/${item}`, { headers })).status, (await fetch(`/api/loans/${loan}`, { headers })).status]
        },
        [itemId, loanId],
      )
      expect(status).toEqual([404, 404])
    })
  })

  it('the association’s drill with a 200 kr deposit: collected through Vipps MobilePay on confirmation, held for damage, partly refunded by the administration', async () => {
    const borrower = 'beboer04@solgaarden.dk'
    const admin = 'admin@solgaarden.dk'
    let loanId = ''
    const chargeOf = (id: string) =>
      serverRows<{ status: string; amount_ore: number; vipps_charge_id: string | null }>(
        'SELECT c.status, c.amount_ore, c.vipps_charge_id FROM charges c JOIN loans l ON l.deposit_charge_id = c.id WHERE l.id = ?',
        id,
      )[0]

    const chairman = 'formand@solgaarden.dk'
    await journey('the administration edits the association’s drill', async (_context, page) => {
      const t = tr(chairman)
      await signIn(page, chairman)
      await page.goto('/lending')
      await page
        .locator('.listing-card')
        .filter({ hasText: t('Lent by the association') })
        .getByRole('link', { name: TITLE })
        .click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      await page.getByRole('link', { name: t('Edit item') }).click()
      await page.getByRole('heading', { name: t('Edit item'), level: 1 }).waitFor()
      await page.getByLabel(t('Deposit (kr., optional)')).fill('99999')
      await page.getByRole('button', { name: t('Save item') }).click()
      await page.getByText(t('The deposit must be between 1 kr. and 5,000 kr.')).waitFor()
      await checkScreen(page, 'lending-item-edit-da')
      await page.getByLabel(t('Deposit (kr., optional)')).fill('200')
      await page.getByLabel(t('Rules'), { exact: true }).fill('Rens boret efter brug.')
      await page.getByRole('button', { name: t('Save item') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      await page.getByText('Rens boret efter brug.').waitFor()
    })

    await journey('request, accept and confirm: the deposit is charged', async (context, adminPage) => {
      const tb = tr(borrower)
      const ta = tr(admin)
      const other = await context
        .browser()!
        .newContext({ baseURL: suite.server.url, viewport: { width: 1280, height: 900 }, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const page = await other.newPage()
        await signIn(page, borrower)
        await page.goto('/lending')
        await page
          .locator('.listing-card')
          .filter({ hasText: tb('Lent by the association') })
          .getByRole('link', { name: TITLE })
          .click()
        await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
        await page.getByLabel(tb('From'), { exact: true }).fill(dayFromToday(5))
        await page.getByLabel(tb('To (return date)')).fill(dayFromToday(6))
        await page.getByRole('button', { name: tb('Send request') }).click()
        await page.getByText(tb('Your request is waiting for the lender’s answer.')).waitFor()
        loanId = page.url().split('/lending/loans/')[1]!

        // The administration answers for the association.
        await signIn(adminPage, admin)
        await adminPage.goto(`/lending/loans/${loanId}`)
        await adminPage.getByRole('button', { name: ta('Accept request') }).click()
        await expect.poll(() => loanRow(loanId)?.status, { timeout: 10_000 }).toBe('ACCEPTED')
        // Before both confirm, the administration moves the return date a day and describes the drill;
        // the screen says beforehand that both confirm again.
        await adminPage.getByText(ta('Saving a change clears both confirmations: you and the borrower confirm the contract again.')).waitFor()
        await adminPage.getByLabel(ta('To (return date)')).fill(dayFromToday(7))
        await adminPage.getByLabel(ta('Condition on handover'), { exact: true }).fill('Som ny.')
        await checkScreen(adminPage, 'lending-loan-terms')
        await adminPage.getByRole('button', { name: ta('Save contract') }).click()
        await expect
          .poll(() => serverRows<{ to_date: string; condition_out: string }>('SELECT to_date, condition_out FROM loans WHERE id = ?', loanId)[0], {
            timeout: 10_000,
          })
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

    // Vipps MobilePay collects it (two days pass on the emulator's clock, which billing follows).
    await expect.poll(() => chargeOf(loanId)?.vipps_charge_id ?? null, { timeout: 40_000 }).not.toBeNull()
    await emulator('clock', { advanceMs: 2 * DAY })
    await expect.poll(() => chargeOf(loanId)?.status, { timeout: 40_000 }).toBe('EXECUTED')

    await journey('the handover waits until the day before the first day', async (_context, page) => {
      const t = tr(admin)
      await signIn(page, admin)
      await page.goto(`/lending/loans/${loanId}`)
      await page.getByText(t('Collected'), { exact: false }).first().waitFor()
      // Starting in five days: recorded from the fourth, said beside the disabled button.
      const reason = page.locator('#loan-handover-when')
      await reason.waitFor()
      expect(await reason.textContent()).toContain(t('The handover can be recorded from {date}.').split('{date}')[0]!.trim())
      expect(await page.getByRole('button', { name: t('Record handover') }).isDisabled()).toBe(true)
      await checkScreen(page, 'lending-handover-too-early')
    })
    // The loan now starts tomorrow (test data: time cannot pass here), so the handover may be recorded today.
    writeDb((db) => db.prepare('UPDATE loans SET from_date = ?, version = version + 1 WHERE id = ?').run(dayFromToday(1), loanId))

    await journey('handover, return with damage, and the administration refunds part of the deposit', async (_context, page) => {
      const t = tr(admin)
      await signIn(page, admin)
      await page.goto(`/lending/loans/${loanId}`)
      await page.getByText(t('Collected'), { exact: false }).first().waitFor()
      await page.getByRole('button', { name: t('Record handover') }).click()
      await page.locator('.listing-badges').getByText(t('Lent out'), { exact: true }).waitFor()
      await page.getByLabel(t('Condition on return')).fill('Borepatronen slinger.')
      await page.getByLabel(t('Damage (optional)')).fill('Borepatronen er skæv og skal skiftes.')
      await page.getByRole('button', { name: t('Record return') }).click()
      await page.getByRole('heading', { name: t('Settle the deposit') }).waitFor()
      await page.getByLabel(t('Refund to the borrower (kr.)')).fill('250')
      await page.getByRole('button', { name: t('Settle deposit') }).click()
      await page.locator('.field-error').first().waitFor()
      await checkScreen(page, 'lending-settle-deposit')
      await page.getByLabel(t('Refund to the borrower (kr.)')).fill('150')
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
