/**
 * Company journeys: the super admin sets up an association from scratch (company, payment
 * provider with a webhook, an address found by autocomplete, an invited administrator); that
 * administrator sees only their association; the chairman edits the heating-water period at a
 * board meeting without a connection, and it reaches the server when the connection returns.
 */
import { describe, expect, it } from 'vitest'
import { danish, latestMailTo } from './harness'
import { journeySuite, signIn, snapBoth, syncState } from './journeys'

const { suite, clientIp, journey, serverRows } = journeySuite('companies', 6)
const serverRow = <T>(sql: string, ...params: unknown[]): T | undefined => serverRows<T>(sql, ...params)[0]

const NEW_COMPANY = { name: 'Andelsboligforeningen Lindelyset', acronym: 'ABL', cvr: '31000009' }
const NEW_ADMIN = { name: 'Lise Lind', email: 'lise@lindelyset.dk' }

describe('companies and administration journeys', () => {
  it(
    '(1) the super admin creates a company with a provider, an address and an administrator, who then sees only that company',
    () =>
      journey('setup', async (context, page) => {
        await signIn(page, 'superadmin@boligkasse.dk')

        // Create the company; the page returns to the list by itself.
        await page.goto('/companies')
        await page.getByRole('link', { name: 'Create company' }).click()
        await page.getByLabel('Name', { exact: true }).fill(NEW_COMPANY.name)
        await page.getByLabel('Acronym', { exact: true }).fill(NEW_COMPANY.acronym)
        await page.getByLabel(/^CVR/).fill(NEW_COMPANY.cvr)
        await page.getByLabel('Union type').selectOption('COOP')
        await page.getByRole('button', { name: 'Create company' }).click()
        await page.waitForURL('**/companies', { timeout: 10_000 })
        // The list shows the new company as New; its page lists what it needs before it can collect.
        await page
          .getByRole('row', { name: new RegExp(NEW_COMPANY.name) })
          .getByRole('cell', { name: 'New', exact: true })
          .waitFor()
        await page.getByRole('link', { name: new RegExp(NEW_COMPANY.name) }).click()
        await page.getByRole('heading', { level: 1, name: new RegExp(NEW_COMPANY.name) }).waitFor()
        const setup = page.locator('.alert', { hasText: 'Before this company can collect payments' })
        for (const step of ['Add an active payment provider', 'Add at least one address', 'Add a chairman or an administrator', 'Activate the company'])
          await setup.getByText(step).waitFor()
        await snapBoth(page, 'company-setup')

        // A payment provider: added, tested against the (built-in) Vipps, a webhook registered.
        await page.getByRole('tab', { name: 'Payment Providers' }).click()
        await page.getByText('No payment providers configured').waitFor()
        await page.getByRole('button', { name: 'Add payment provider' }).click()
        await page.getByRole('button', { name: 'Add payment provider' }).click()
        await expect.poll(() => page.getByText('This field is required').count()).toBeGreaterThan(0)
        await page.getByLabel('Provider name').fill('Lindelyset Vipps')
        await page.getByLabel('Merchant serial number').fill('424242')
        await page.getByLabel('Client ID').fill('lindelyset-client')
        await page.getByLabel('Client secret').fill('lindelyset-secret-9876')
        await page.getByLabel('Subscription key').fill('lindelyset-subscription-5555')
        await page.getByRole('button', { name: 'Add payment provider' }).click()
        await page.waitForURL(/\/payment-provider\//)
        await page.getByRole('heading', { level: 1, name: 'Lindelyset Vipps' }).waitFor()
        await expect.poll(() => page.getByRole('switch', { name: 'Test environment' }).isChecked()).toBe(true)
        // Secrets never come back: only their masked tail is shown.
        expect(await page.locator('main').innerText()).toContain('••••9876')
        expect(await page.content()).not.toContain('lindelyset-secret-9876')

        await page.getByRole('button', { name: 'Test connection' }).click()
        await page
          .getByRole('status')
          .filter({ hasText: /access token/ })
          .waitFor()

        await page.getByLabel('Webhook URL').fill('https://lindelyset.example/hooks/vipps')
        await page.getByRole('button', { name: 'Add webhook' }).click()
        await page.getByText('Webhook added successfully!').waitFor()
        await page.getByRole('rowheader', { name: /lindelyset\.example/ }).waitFor()

        // Switched off, the provider's webhooks cannot be changed; the switch saves at once.
        await page.getByRole('switch', { name: 'Active' }).click()
        await expect.poll(() => page.getByRole('button', { name: 'Add webhook' }).isDisabled()).toBe(true)
        await expect
          .poll(() => serverRow<{ is_active: number }>('SELECT is_active FROM payment_providers WHERE provider_name = ?', 'Lindelyset Vipps')?.is_active)
          .toBe(0)
        await snapBoth(page, 'provider-edit')
        await page.getByRole('switch', { name: 'Active' }).click()
        await expect.poll(() => page.getByRole('button', { name: 'Add webhook' }).isDisabled()).toBe(false)

        // Removing the webhook asks first, then removes it here and at Vipps (it always failed once: decision 0039).
        const hooksAtVipps = async () => {
          const state = (await (await page.request.get('/vipps-emulator/_control/state')).json()) as { hooks: Record<string, { url: string }> }
          return Object.values(state.hooks).filter((h) => h.url.includes('lindelyset.example')).length
        }
        expect(await hooksAtVipps()).toBe(1)
        await snapBoth(page, 'provider-webhooks')
        await page.getByRole('button', { name: /^Remove https:\/\/lindelyset\.example/ }).click()
        const dialog = page.getByRole('dialog', { name: 'Remove webhook' })
        await dialog.getByText('Do you really want to remove the webhook https://lindelyset.example/hooks/vipps?').waitFor()
        await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
        await page.getByText('Webhook removed successfully!').waitFor()
        await page.getByText('No webhooks configured').waitFor()
        expect(await hooksAtVipps()).toBe(0)
        await snapBoth(page, 'provider-webhook-removed')

        // An address found by typing part of it, chosen with the keyboard.
        await page.getByRole('link', { name: 'Back to company' }).click()
        await page.getByRole('tab', { name: 'Addresses' }).click()
        await page.getByRole('button', { name: 'Add address' }).click()
        const search = page.getByRole('combobox', { name: 'Search address' })
        await search.fill('Nørre')
        await page.getByRole('listbox', { name: 'Address suggestions' }).getByRole('option').first().waitFor()
        const firstSuggestion = await page.getByRole('option').first().innerText()
        await search.press('ArrowDown')
        await search.press('Enter')
        await expect.poll(() => page.getByLabel('Street', { exact: true }).inputValue()).not.toBe('')
        const street = await page.getByLabel('Street', { exact: true }).inputValue()
        expect(firstSuggestion).toContain(street)
        await page.getByRole('form', { name: 'Add address' }).getByRole('button', { name: 'Add address' }).click()
        await page.getByRole('rowheader', { name: new RegExp(street) }).waitFor()

        // A new administrator, invited by e-mail.
        await page.getByRole('tab', { name: 'Users' }).click()
        await page.getByRole('button', { name: 'Add user' }).click()
        const invitedAt = Date.now() - 1000
        await page.getByRole('combobox', { name: 'Email' }).fill(NEW_ADMIN.email)
        await page.getByLabel('Name', { exact: true }).fill(NEW_ADMIN.name)
        await page.getByLabel('Role').selectOption('ADMINISTRATOR')
        await page.getByRole('form', { name: 'Add user' }).getByRole('button', { name: 'Add user' }).click()
        await page.getByRole('rowheader', { name: new RegExp(NEW_ADMIN.name) }).waitFor({ timeout: 10_000 })
        await snapBoth(page, 'company-users')

        // Provider, address and administrator are there: only the activation is left, and it is done.
        await page.getByText('Everything is set up: activate the company to start collecting payments.').waitFor({ timeout: 10_000 })
        await page.locator('.company-lifecycle').getByRole('button', { name: 'Activate', exact: true }).click()
        await page.getByRole('dialog', { name: 'Activate' }).getByRole('button', { name: 'Activate', exact: true }).click()
        await page.getByText('Company activated').waitFor()
        await page.locator('.page-header .badge', { hasText: 'Active' }).waitFor({ timeout: 10_000 })
        expect(serverRow<{ status: string }>('SELECT status FROM companies WHERE cvr = ?', NEW_COMPANY.cvr)?.status).toBe('ACTIVE')
        await expect.poll(() => page.locator('.alert', { hasText: 'Everything is set up' }).count(), { timeout: 10_000 }).toBe(0)

        // The administrator chooses a password from the invitation and signs in.
        const mail = await latestMailTo(suite.server.mailDir, NEW_ADMIN.email, invitedAt)
        expect(mail.subject).toContain(NEW_COMPANY.name)
        const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text ?? '')?.[0]
        expect(link, mail.text).toBeTruthy()
        const admin = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
        try {
          const adminPage = await admin.newPage()
          await adminPage.goto(link!)
          const password = 'Lindelyset-Kasse-77'
          await adminPage.getByLabel(/^New password/).fill(password)
          await adminPage.getByLabel(/^Confirm/).fill(password)
          await adminPage.getByRole('button', { name: /Reset password|Set new password|Save|Choose/ }).click()
          await expect.poll(() => adminPage.locator('main').innerText()).toMatch(/password has been changed/i)
          // The invitee's language was the inviter's guess (English here).
          await signIn(adminPage, NEW_ADMIN.email, password)
          await adminPage.locator('nav.sidebar-nav').getByRole('link', { name: 'Companies' }).click()
          const rows = adminPage.locator('table tbody tr')
          await expect.poll(() => rows.count()).toBe(1)
          expect(await rows.first().innerText()).toContain(NEW_COMPANY.name)
          // Another association's page is simply not there for them.
          const otherId = serverRow<{ id: string }>('SELECT id FROM companies WHERE cvr = ?', '10150817')!.id
          await adminPage.goto(`/company/${otherId}`)
          await adminPage.getByText('Company not found').waitFor()
        } finally {
          await admin.close()
        }
      }),
    180_000,
  )

  it('(2) the chairman edits the heating-water period offline at a meeting, and it syncs when the connection returns', () =>
    journey('offline-heating', async (_context, page) => {
      // Karen Holm uses the app in Danish (her profile's language applies once she is signed in).
      await signIn(page, 'formand@solgaarden.dk')
      const companyId = serverRow<{ id: string }>('SELECT id FROM companies WHERE cvr = ?', '10150817')!.id
      await page.goto(`/company/${companyId}`)
      const startLabel = danish('Heating and water period start (dd.mm)')
      const endLabel = danish('Heating and water period end (dd.mm)')
      await page.getByRole('term').filter({ hasText: startLabel }).waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')

      let offline = true
      await page.route('**/api/**', (route) => (offline ? route.abort('internetdisconnected') : route.fallback()))

      const edit = async (label: string, typed: string) => {
        await page.getByRole('button', { name: new RegExp(`${label.replace(/[().]/g, '\\$&')}$`) }).click()
        const input = page.getByLabel(label, { exact: true })
        await input.fill('')
        await input.pressSequentially(typed)
        await input.press('Enter')
      }
      // Typed without the dot: the field formats dd.mm as one types.
      await edit(startLabel, '0105')
      await edit(endLabel, '3004')
      await page.getByRole('definition').filter({ hasText: '01.05' }).waitFor()
      await page.getByRole('definition').filter({ hasText: '30.04' }).waitFor()
      await expect.poll(() => syncState(page)).not.toBe('synced')
      const before = serverRow<{ s: string | null; e: string | null }>(
        'SELECT heating_water_period_start_date AS s, heating_water_period_end_date AS e FROM companies WHERE id = ?',
        companyId,
      )
      expect(before).not.toEqual({ s: '01.05', e: '30.04' })
      await snapBoth(page, 'company-offline-edit')

      offline = false
      await page.evaluate(() => dispatchEvent(new Event('online')))
      await expect
        .poll(() => serverRow('SELECT heating_water_period_start_date AS s, heating_water_period_end_date AS e FROM companies WHERE id = ?', companyId), {
          timeout: 15_000,
        })
        .toEqual({ s: '01.05', e: '30.04' })
      await expect.poll(() => syncState(page), { timeout: 15_000 }).toBe('synced')
    }))

  it('(3) the chairman changes roles (the last administrator keeps one), and the super admin suspends and activates the association', async () => {
    const companyId = serverRow<{ id: string }>('SELECT id FROM companies WHERE cvr = ?', '10150817')!.id
    const roleOf = (email: string) =>
      serverRow<{ role: string }>(
        'SELECT m.role FROM company_members m JOIN users u ON u.id = m.user_id WHERE m.company_id = ? AND u.email_address = ?',
        companyId,
        email,
      )?.role

    await journey('member-roles', async (_context, page) => {
      // Karen Holm, the chairman, works in Danish.
      await signIn(page, 'formand@solgaarden.dk')
      await page.goto(`/company/${companyId}`)
      await page.getByRole('tab', { name: danish('Users') }).click()
      const roleSelect = (name: string) => page.getByLabel(danish('Role of {name}').replace('{name}', name), { exact: true })
      await roleSelect('Jonas Berg').selectOption('ACCOUNTANT')
      await expect.poll(() => roleOf('bestyrelse@solgaarden.dk'), { timeout: 15_000 }).toBe('ACCOUNTANT')
      await snapBoth(page, 'company-users-roles')

      // Two managers: the administrator may become an accountant; then Karen is the last one.
      await roleSelect('Anders Nielsen').selectOption('ACCOUNTANT')
      await expect.poll(() => roleOf('admin@solgaarden.dk'), { timeout: 15_000 }).toBe('ACCOUNTANT')
      await roleSelect('Karen Holm').selectOption('BOARDMEMBER')
      const refusal = page.getByText(danish('A company must keep at least one chairman or administrator.'))
      await refusal.waitFor({ timeout: 15_000 })
      expect(roleOf('formand@solgaarden.dk')).toBe('CHAIRMAN')
      await snapBoth(page, 'company-users-last-manager')
      await page.getByRole('button', { name: danish('Discard') }).click()
      await expect.poll(() => refusal.count()).toBe(0)
      await expect.poll(() => roleSelect('Karen Holm').inputValue()).toBe('CHAIRMAN')

      // Back as they were.
      await roleSelect('Anders Nielsen').selectOption('ADMINISTRATOR')
      await roleSelect('Jonas Berg').selectOption('BOARDMEMBER')
      await expect
        .poll(() => [roleOf('admin@solgaarden.dk'), roleOf('bestyrelse@solgaarden.dk')], { timeout: 15_000 })
        .toEqual(['ADMINISTRATOR', 'BOARDMEMBER'])

      // The chairman's list and company view in Danish, with the status.
      await page.getByRole('tab', { name: danish('Addresses') }).click()
      await page.getByRole('table').waitFor()
      await snapBoth(page, 'company-addresses')
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Companies') })
        .click()
      await page
        .getByRole('row', { name: /Solgården/ })
        .getByRole('cell', { name: danish('Active'), exact: true })
        .waitFor()
      await snapBoth(page, 'companies-list-da')
    })

    await journey('suspend-activate', async (_context, page) => {
      await signIn(page, 'superadmin@boligkasse.dk')
      await page.goto('/companies')
      await page.getByRole('row', { name: /Solgården/ }).waitFor()
      await snapBoth(page, 'companies-list')
      await page.getByRole('link', { name: /Solgården/ }).click()
      const lifecycle = page.locator('.company-lifecycle')
      // Active: suspend or deactivate, never delete straight away.
      await lifecycle.getByRole('button', { name: 'Suspend', exact: true }).waitFor()
      expect(await lifecycle.getByRole('button').allInnerTexts()).toEqual(['Suspend', 'Deactivate'])
      await lifecycle.getByRole('button', { name: 'Suspend', exact: true }).click()
      const dialog = page.getByRole('dialog', { name: 'Suspend' })
      await dialog.getByText(/no charges are collected until it is activated again/).waitFor()
      await dialog.getByRole('button', { name: 'Suspend', exact: true }).click()
      await page.getByText('Company suspended').waitFor()
      await page.locator('.page-header .badge', { hasText: 'Suspended' }).waitFor({ timeout: 10_000 })
      await page.getByText('This company is suspended: its data cannot be changed').waitFor()
      expect(serverRow<{ status: string }>('SELECT status FROM companies WHERE id = ?', companyId)?.status).toBe('SUSPENDED')
      // Read-only: no edit buttons, no role choice.
      await expect.poll(() => page.getByRole('button', { name: /^Edit/ }).count()).toBe(0)
      await page.getByRole('tab', { name: 'Users' }).click()
      await page.getByRole('rowheader', { name: 'Karen Holm' }).waitFor()
      expect(await page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0)
      await snapBoth(page, 'company-suspended')

      await lifecycle.getByRole('button', { name: 'Activate', exact: true }).click()
      await page.getByRole('dialog', { name: 'Activate' }).getByRole('button', { name: 'Activate', exact: true }).click()
      await page.getByText('Company activated').waitFor()
      await page.locator('.page-header .badge', { hasText: 'Active' }).waitFor({ timeout: 10_000 })
      expect(serverRow<{ status: string }>('SELECT status FROM companies WHERE id = ?', companyId)?.status).toBe('ACTIVE')
      await page.getByRole('tab', { name: 'Payment Providers' }).click()
      await page.getByRole('table').waitFor()
      await snapBoth(page, 'company-providers')
    })
  }, 180_000)
})
