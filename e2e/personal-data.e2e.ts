/**
 * Personal data (decision 0069, docs/PRIVACY.md): a resident (Emma, English) downloads
 * everything Boligkasse holds about her from her profile, as JSON and as a readable page, and the
 * JSON has her invoices; offline the profile says the download needs a connection. The chairman
 * (Karen, Danish) erases the personal data of a board member who has nothing open (Jonas Berg):
 * the dialog says what goes and what is kept, the Users tab then shows "Erased member", and Jonas
 * can no longer sign in. Every screen is axe-clean and fits 375 px (screenshots under test-results/).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr, writeHistory } = journeySuite('personal-data', 39)

describe('personal data', () => {
  it('a resident downloads her data; the chairman erases a board member who asked, who can then no longer sign in', async () => {
    const resident = 'beboer03@solgaarden.dk'
    const chairman = 'formand@solgaarden.dk'
    const board = 'bestyrelse@solgaarden.dk'
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

    const boardId = serverRows<{ id: string }>('SELECT id FROM users WHERE email_address = ?', board)[0]!.id
    const main = serverRows<{ company_id: string }>('SELECT company_id FROM company_members WHERE user_id = ?', boardId)[0]!.company_id

    await journey('the chairman erases the board member', async (_context: BrowserContext, page: Page) => {
      const t = tr(chairman)
      await signIn(page, chairman)
      await page.goto(`/company/${main}`)
      await page.getByRole('tab', { name: t('Users') }).click()
      await page.getByRole('heading', { name: t('Erase personal data'), level: 2 }).waitFor()
      // Jonas's own row has the action (its accessible name says whose data); the keyboard opens it.
      const rowAction = page.getByRole('button', { name: `${t('Erase personal data…')} Jonas Berg`, exact: true }).last()
      await rowAction.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('heading', { name: /Jonas Berg/ }).waitFor()
      await dialog.getByText(t('What is kept:')).waitFor()
      await checkScreen(page, 'personal-data-erase-dialog')
      // A day after today is refused before anything is sent.
      await dialog.getByLabel(t('Date of the request')).fill('2099-01-01')
      await dialog.getByRole('button', { name: t('Erase'), exact: true }).click()
      await dialog.getByText(t('Please enter the date the member asked, today or earlier')).waitFor()
      await dialog.getByLabel(t('Date of the request')).fill(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date()))
      await dialog.getByRole('button', { name: t('Erase'), exact: true }).click()
      await page
        .getByText(
          t('The personal data of {done} was erased. The member now shows as “{erasedName}”.')
            .replace('{done}', 'Jonas Berg')
            .replace('{erasedName}', t('Erased member')),
        )
        .waitFor()
      await expect.poll(() => serverRows<{ full_name: string }>('SELECT full_name FROM users WHERE id = ?', boardId)[0]!.full_name).toBe('Erased member')
      // The Users tab follows through the change log, in the viewer's language (Karen reads Danish), without the placeholder address.
      expect(t('Erased member')).toBe('Slettet medlem')
      await page
        .getByRole('rowheader', { name: t('Erased member') })
        .first()
        .waitFor({ timeout: 20_000 })
      expect(await page.getByText('erased.invalid').count()).toBe(0)
      await checkScreen(page, 'personal-data-erased')
      expect(serverRows<{ n: number }>('SELECT count(*) AS n FROM auth_methods WHERE user_id = ?', boardId)[0]!.n).toBe(0)
      expect(serverRows<{ n: number }>('SELECT count(*) AS n FROM personal_data_erasures WHERE user_id = ?', boardId)[0]!.n).toBe(1)
    })

    await journey('the erased member cannot sign in', async (_context: BrowserContext, page: Page) => {
      await page.goto('/login')
      await page.getByLabel('Email', { exact: true }).fill(board)
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByText('Login failed.').waitFor()
      expect(await page.locator('nav.sidebar-nav').count()).toBe(0)
    })
  })
})
