/**
 * Personal data (decision 0069, docs/PRIVACY.md): a resident (Emma, English) downloads
 * everything Boligkasse holds about her from her profile, as JSON and as a readable page, and the
 * JSON has her invoices; offline the profile says the download needs a connection. A former
 * resident with nothing open (Alma, Danish) asks from her profile to have her data erased
 * (decision 0080): the dialog says what happens, and the request waits for approval. The chairman
 * (Karen, Danish) approves it on the Users tab, with the keyboard: the dialog says what goes and what
 * is kept, the request then reads "Approved and erased" under "Erased member", and Alma can no longer
 * sign in. Every screen is axe-clean and fits 375 px (screenshots under test-results/).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr, writeHistory } = journeySuite('personal-data', 39)

describe('personal data', () => {
  it('a resident downloads her data; a former resident asks to be erased, the chairman approves, and she can no longer sign in', async () => {
    const resident = 'beboer03@solgaarden.dk'
    const chairman = 'formand@solgaarden.dk'
    const former = 'beboer13@solgaarden.dk'
    const residentId = serverRows<{ id: string }>('SELECT id FROM users WHERE email_address = ?', resident)[0]!.id
    // Two months she paid through Vipps MobilePay, written the way billing writes them.
    const agreementId = serverRows<{ id: string }>("SELECT id FROM agreements WHERE member_user_id = ? AND status = 'ACCEPTED'", residentId)[0]!.id
    await writeHistory(async (w) => {
      for (const month of ['2026-09-01', '2026-10-01'])
        await w.charge({ agreementId, paymentDate: month, lines: [{ type: 'COMMON_EXPENSES', amount: 450_000 }], status: 'EXECUTED' })
    })
    const invoiceNumbers = serverRows<{ number: number }>('SELECT number FROM invoices WHERE member_user_id = ? ORDER BY number', residentId).map(
      (r) => r.number,
    )

    await journey('the resident downloads her data', async (context: BrowserContext, page: Page) => {
      const t = tr(resident)
      await signIn(page, resident)
      await page.goto('/user')
      await page.getByRole('heading', { name: t('Your data'), level: 2 }).waitFor()
      const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: t('Download as JSON') }).click()])
      expect(json.suggestedFilename()).toMatch(/^boligkasse-personal-data-\d{4}-\d{2}-\d{2}\.json$/)
      const data = JSON.parse(readFileSync((await json.path())!, 'utf8')) as { user: { emailAddress: string }; invoices: { number: number }[] }
      expect(data.user.emailAddress).toBe(resident)
      expect(invoiceNumbers.length).toBe(2)
      expect(data.invoices.map((i) => i.number).sort((a, b) => a - b)).toEqual(invoiceNumbers)
      const [html] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: t('Download as a readable page') }).click()])
      expect(html.suggestedFilename()).toMatch(/\.html$/)
      const page2 = readFileSync((await html.path())!, 'utf8')
      expect(page2).toContain(t('Invoices and credit notes'))
      expect(page2).toContain(resident)
      await checkScreen(page, 'personal-data-profile')

      await context.setOffline(true)
      await page.getByText(t('You are offline. Downloading your data needs a connection.')).waitFor()
      expect(await page.getByRole('button', { name: t('Download as JSON') }).isDisabled()).toBe(true)
      await checkScreen(page, 'personal-data-profile-offline')
      await context.setOffline(false)
    })

    const formerId = serverRows<{ id: string }>('SELECT id FROM users WHERE email_address = ?', former)[0]!.id
    const main = serverRows<{ company_id: string }>('SELECT company_id FROM agreements WHERE member_user_id = ?', formerId)[0]!.company_id

    await journey('the former resident asks to be erased', async (_context: BrowserContext, page: Page) => {
      const t = tr(former)
      await signIn(page, former)
      await page.goto('/user')
      await page.getByRole('heading', { name: t('Erase my data'), level: 2 }).waitFor()
      const ask = page.getByRole('button', { name: t('Request erasure of my data…') })
      await ask.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog')
      await dialog.getByText(t('What is kept:')).waitFor()
      await checkScreen(page, 'personal-data-erasure-request-dialog')
      await dialog.getByRole('button', { name: t('Send the request'), exact: true }).click()
      await page.getByText(t('Your request was sent. Staff will look at it; you can see its state here.')).waitFor()
      await page.getByText(t('Waiting for approval')).waitFor()
      await checkScreen(page, 'personal-data-erasure-requested')
      expect(serverRows<{ status: string; channel: string }>('SELECT status, channel FROM personal_data_erasure_requests WHERE user_id = ?', formerId)).toEqual(
        [{ status: 'PENDING', channel: 'APP' }],
      )
    })

    await journey('the chairman approves the request', async (_context: BrowserContext, page: Page) => {
      const t = tr(chairman)
      await signIn(page, chairman)
      await page.goto(`/company/${main}`)
      await page.getByRole('tab', { name: t('Users') }).click()
      await page.getByRole('heading', { name: t('Erasure requests'), level: 2 }).waitFor()
      // The request's action says whose data (its accessible name); the keyboard opens it.
      const approve = page.getByRole('button', { name: `${t('Approve and erase… <0>{name}</0>').replace(/ ?<0>.*<\/0>/, '')} Alma Knudsen`, exact: true })
      await approve.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('heading', { name: /Alma Knudsen/ }).waitFor()
      await dialog.getByText(t('What is kept:')).waitFor()
      await checkScreen(page, 'personal-data-approve-dialog')
      await dialog.getByRole('button', { name: t('Erase'), exact: true }).click()
      await page
        .getByText(
          t('The personal data of {name} was erased. The member now shows as “{erasedName}”.')
            .replace('{name}', 'Alma Knudsen')
            .replace('{erasedName}', t('Erased member')),
        )
        .waitFor()
      await expect.poll(() => serverRows<{ full_name: string }>('SELECT full_name FROM users WHERE id = ?', formerId)[0]!.full_name).toBe('Erased member')
      // The list keeps the audit, in the viewer's language (Karen reads Danish), without the placeholder address.
      expect(t('Erased member')).toBe('Slettet medlem')
      await page.getByText(t('Approved and erased')).waitFor()
      await page.getByText(t('Erased member'), { exact: true }).first().waitFor()
      expect(await page.getByText('erased.invalid').count()).toBe(0)
      await checkScreen(page, 'personal-data-erased')
      expect(serverRows<{ n: number }>('SELECT count(*) AS n FROM auth_methods WHERE user_id = ?', formerId)[0]!.n).toBe(0)
      expect(serverRows<{ n: number }>('SELECT count(*) AS n FROM personal_data_erasures WHERE user_id = ?', formerId)[0]!.n).toBe(1)
    })

    await journey('the erased member cannot sign in', async (_context: BrowserContext, page: Page) => {
      await page.goto('/login')
      await page.getByLabel('Email', { exact: true }).fill(former)
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByText('Login failed.').waitFor()
      expect(await page.locator('nav.sidebar-nav').count()).toBe(0)
    })
  })
})
