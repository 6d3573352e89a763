/**
 * Lending (docs/decisions/0064-lending.md), a member's own item: a resident (Emma, English) lends her drill with a photo
 * and edits its rules; a neighbour (Mikkel, Danish) asks to borrow an item of hers, Emma accepts,
 * and both confirm the contract, each in their own browser; Emma records the handover; the day
 * before the return date the reminder reaches Mikkel in the app and by e-mail in Danish (its time
 * is brought forward, as if the days had passed, and the server's own job sends it); Emma records
 * the return. A resident of another association neither sees nor opens her item. Every screen is
 * axe-clean and fits 375 px (screenshots under test-results/). The association's own drill and its
 * deposit: lending-deposit.e2e.ts.
 *
 * Each test starts from its own state: an item of its own (its own title), and the loan brought
 * through the API to the step the test begins at, so no test waits on another or on its time.
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { latestMailTo } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'
import { dayFromToday, lendingApi } from './lending-state'

const { suite, clientIp, journey, serverRows, writeDb, tr, residentOfHavnehuset, api, tokenOf } = journeySuite('lending', 34)
const state = lendingApi({ api, tokenOf, serverRows })

const LENDER = 'beboer03@solgaarden.dk'
const BORROWER = 'beboer04@solgaarden.dk'
const TITLE = 'Boremaskine'
const RULES = 'Lad batterierne op og rens borepatronen, før du afleverer den.'
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

/** An item of Emma's, made through the API as her form makes it. */
const emmasItem = (title: string) =>
  state.item(LENDER, { title, description: 'Lånes gerne ud.', rules: 'Lad batterierne op, før du afleverer den.', location: 'Nr. 14, 2. th.' })

describe('lending: a member lends her own', () => {
  it('the lender lists a drill with a photo, is told what is missing, and edits its rules', async () => {
    await journey('the lender lists the drill', async (_context: BrowserContext, page: Page) => {
      const t = tr(LENDER)
      await signIn(page, LENDER)
      await page.getByRole('link', { name: t('Lending'), exact: true }).click()
      await page.getByRole('heading', { name: t('Lending'), level: 1 }).waitFor()
      await page.getByRole('link', { name: t('Lend something') }).click()
      await page.getByRole('heading', { name: t('Lend something'), level: 1 }).waitFor()
      // Sent empty: what is missing, in the user's language.
      await page.getByRole('button', { name: t('Publish item') }).click()
      await page.getByText(t('Please enter what you lend')).waitFor()
      await page.getByLabel(t('Deposit (DKK, optional)')).fill('99999')
      await page.getByRole('button', { name: t('Publish item') }).click()
      await page.getByText(t('The deposit must be between DKK 1 and DKK 5,000.')).waitFor()
      await checkScreen(page, 'lending-form-errors')
      await page.getByLabel(t('Deposit (DKK, optional)')).fill('')
      await page.getByLabel(t('What do you lend?')).fill(TITLE)
      await page.getByLabel(t('Description'), { exact: true }).fill('Makita 18 V med to batterier.')
      await page.getByLabel(t('Rules'), { exact: true }).fill('Lad batterierne op, før du afleverer den.')
      await page.getByLabel(t('Where to pick it up')).fill('Nr. 14, 2. th.')
      await page.getByLabel(t('Photo (optional)')).setInputFiles({ name: 'bor.png', mimeType: 'image/png', buffer: PNG })
      await page.getByRole('button', { name: t('Publish item') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      const itemId = page.url().split('/lending/item/')[1]!
      await expect
        .poll(() => serverRows<{ photo_id: string | null }>('SELECT photo_id FROM lending_items WHERE id = ?', itemId)[0]?.photo_id ?? null)
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
      await expect.poll(() => serverRows<{ rules: string }>('SELECT rules FROM lending_items WHERE id = ?', itemId)[0]?.rules).toBe(RULES)
    })
  })

  it('a neighbour asks to borrow, the lender accepts, and both confirm the contract in their own browsers', async () => {
    const title = 'Stiksav'
    await emmasItem(title)
    await journey('request, accept and confirm the contract in two browsers', async (context, lenderPage) => {
      const tl = tr(LENDER)
      const tb = tr(BORROWER)
      const other = await context
        .browser()!
        .newContext({ baseURL: suite.server.url, viewport: { width: 1280, height: 900 }, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const page = await other.newPage()
        await signIn(page, BORROWER)
        await page.getByRole('link', { name: tb('Lending'), exact: true }).click()
        // The demo association lends a drill of its own; this is Emma's.
        const card = page.locator('.listing-card').filter({ hasText: 'Emma Hansen' }).filter({ hasText: title })
        await card.waitFor()
        await checkScreen(page, 'lending-list-da')
        await card.getByRole('link', { name: title }).click()
        await page.getByRole('heading', { name: title, level: 1 }).waitFor()
        await page.getByRole('table').waitFor()
        await checkScreen(page, 'lending-item-borrower-da')
        await page.getByLabel(tb('From'), { exact: true }).fill(dayFromToday(1))
        await page.getByLabel(tb('To (return date)')).fill(dayFromToday(3))
        await page.getByLabel(tb('Message to the lender (optional)')).fill('Skal hænge hylder op i weekenden.')
        await page.getByRole('button', { name: tb('Send request') }).click()
        await page.getByText(tb('Your request is waiting for the lender’s answer.')).waitFor()
        const loanId = page.url().split('/lending/loans/')[1]!
        await expect.poll(() => state.loan(loanId)?.status).toBe('REQUESTED')
        await checkScreen(page, 'lending-loan-requested-da')

        // The lender is told, and accepts and confirms from the loan's page.
        await signIn(lenderPage, LENDER)
        await lenderPage.goto('/notifications')
        await lenderPage.getByText(`Mikkel Andersen wants to borrow “${title}”`).first().waitFor()
        await lenderPage.goto(`/lending/loans/${loanId}`)
        await lenderPage.getByRole('button', { name: tl('Accept request') }).click()
        await expect.poll(() => state.loan(loanId)?.status).toBe('ACCEPTED')
        await lenderPage.getByRole('button', { name: tl('Confirm the contract') }).click()
        await lenderPage.getByText(tl('You have confirmed the contract. Waiting for the borrower to confirm.')).waitFor()
        await checkScreen(lenderPage, 'lending-loan-lender-confirmed')

        // The borrower confirms in their own browser: the contract is confirmed for both.
        await page.reload()
        await page.getByRole('button', { name: tb('Confirm the contract') }).click()
        await expect.poll(() => state.loan(loanId)?.status).toBe('CONFIRMED')
        await page.locator('.listing-badges').getByText(tb('Contract confirmed'), { exact: true }).waitFor()
        await lenderPage.reload()
        await lenderPage.locator('.listing-badges').getByText(tl('Contract confirmed'), { exact: true }).waitFor()
        expect(state.loan(loanId)).toMatchObject({ lender_confirmed_at: expect.any(String), borrower_confirmed_at: expect.any(String) })
      } finally {
        await other.close()
      }
    })
  })

  it('the lender records the handover of a confirmed loan; the return reminders are planned and the calendar shows who has it', async () => {
    const itemId = await emmasItem('Hobbykniv')
    const loanId = await state.loanTo('CONFIRMED', { itemId, lender: LENDER, borrower: BORROWER, from: dayFromToday(1), to: dayFromToday(3) })
    await journey('the handover', async (_context, page) => {
      const t = tr(LENDER)
      await signIn(page, LENDER)
      await page.goto(`/lending/loans/${loanId}`)
      await page.locator('.listing-badges').getByText(t('Contract confirmed'), { exact: true }).waitFor()
      // The handover is recorded with the item's condition.
      await page.getByLabel(t('Condition on handover (optional)')).fill('Som ny, to fulde batterier.')
      await page.getByRole('button', { name: t('Record handover') }).click()
      await expect.poll(() => state.loan(loanId)?.status).toBe('HANDED_OVER')
      await page.locator('.listing-badges').getByText(t('Lent out'), { exact: true }).waitFor()
      await checkScreen(page, 'lending-loan-handed-over')
    })
    expect(serverRows<{ kind: string }>('SELECT kind FROM loan_reminders WHERE loan_id = ? ORDER BY due_at', loanId).map((r) => r.kind)).toEqual([
      'DAY_BEFORE',
      'RETURN_DAY',
      'OVERDUE',
    ])
    await journey('the calendar', async (_context, page) => {
      // The borrower (Danish) sees the days as theirs.
      await signIn(page, BORROWER)
      await page.goto(`/lending/item/${itemId}`)
      await page.getByRole('cell', { name: 'Dig' }).first().waitFor()
      await checkScreen(page, 'lending-item-booked-da')
    })
  })

  it('the day before the return date the reminder reaches the borrower by e-mail and in the app, in Danish', async () => {
    const title = 'Trillebør'
    const to = dayFromToday(3)
    const loanId = await state.loanTo('HANDED_OVER', { itemId: await emmasItem(title), lender: LENDER, borrower: BORROWER, from: dayFromToday(1), to })

    // The reminder's time has come (brought forward, as if the days had passed); the server's
    // `lending` job sends it once.
    const before = Date.now()
    writeDb((db) =>
      db.prepare("UPDATE loan_reminders SET due_at = ? WHERE loan_id = ? AND kind = 'DAY_BEFORE'").run(new Date(Date.now() - 60_000).toISOString(), loanId),
    )
    await expect
      .poll(() => serverRows<{ sent_at: string | null }>("SELECT sent_at FROM loan_reminders WHERE loan_id = ? AND kind = 'DAY_BEFORE'", loanId)[0]?.sent_at)
      .toBeTruthy()
    // The newest e-mail to the borrower (the handover's may still be on its way when the time is moved).
    const subject = `Påmindelse: aflever “${title}” i morgen`
    await expect.poll(async () => (await latestMailTo(suite.server.mailDir, BORROWER, before)).subject).toBe(subject)
    const mail = await latestMailTo(suite.server.mailDir, BORROWER, before)
    expect(mail.text).toContain('Hej Mikkel Andersen,')
    expect(mail.text).toContain(`${Number(to.slice(8))}.${Number(to.slice(5, 7))}.${to.slice(0, 4)}`)
    expect(mail.text).toContain(`/lending/loans/${loanId}`)

    await journey('the borrower sees the reminder and their loan', async (_context, page) => {
      const t = tr(BORROWER)
      await signIn(page, BORROWER)
      await page.goto('/notifications')
      await page.getByText(subject).first().waitFor()
      await page.goto('/lending/loans')
      await page.getByRole('heading', { name: t('I borrow'), exact: true }).waitFor()
      await page.locator('.lending-loans').getByText(title).first().waitFor()
      await checkScreen(page, 'lending-my-loans-da')
    })
  })

  it('the lender records the return with its condition; the item’s history shows it', async () => {
    const itemId = await emmasItem('Stige')
    const loanId = await state.loanTo('HANDED_OVER', { itemId, lender: LENDER, borrower: BORROWER, from: dayFromToday(1), to: dayFromToday(3) })
    await journey('the lender records the return', async (_context, page) => {
      const t = tr(LENDER)
      await signIn(page, LENDER)
      await page.goto(`/lending/loans/${loanId}`)
      await page.getByRole('button', { name: t('Record return') }).click()
      await page.getByText(t('Please describe the condition of the item')).waitFor()
      await page.getByLabel(t('Condition on return')).fill('Fin, batterierne opladet.')
      await page.getByRole('button', { name: t('Record return') }).click()
      await expect.poll(() => state.loan(loanId)?.status).toBe('RETURNED')
      await page.locator('.listing-badges').getByText(t('Returned'), { exact: true }).waitFor()
      await page.goto(`/lending/item/${itemId}`)
      await page.getByRole('heading', { name: t('History') }).waitFor()
      await page.locator('.lending-loans').getByText(t('Returned'), { exact: true }).waitFor()
      await checkScreen(page, 'lending-item-history')
    })
    expect(state.loan(loanId)).toMatchObject({ status: 'RETURNED', condition_back: 'Fin, batterierne opladet.' })
  })

  it('a resident of another association neither sees nor opens the item or its loan', async () => {
    const itemId = await emmasItem('Højtryksrenser')
    const loanId = await state.loanTo('REQUESTED', { itemId, lender: LENDER, borrower: BORROWER, from: dayFromToday(1), to: dayFromToday(3) })
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
})
