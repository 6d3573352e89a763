/**
 * Agreement journeys (decision 0024): an administrator creates an agreement for a resident; a resident accepts one
 * and approves it on the (built-in) Vipps MobilePay page; the accountant at a board meeting without
 * a connection edits one agreement and terminates another, closes the browser, and later the server
 * holds exactly those changes. A board member reads agreements with no admin action;
 * `/agreements/status/{status}` filters the list; the terminate dialog says what the last payment
 * charges; an accepted agreement that is not collected says so in the list and on the agreement.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { danish, launchProfile } from './harness'
import { bearerTokenOf, journeySuite, signIn, snapAll, snapBoth, syncState } from './journeys'

const { suite, clientIp, journey, serverRows } = journeySuite('agreements', 7)

const agreementOf = (email: string) =>
  serverRows<{ id: string; status: string; external_seq: number; version: number; termination_date: string | null; price_ore: number }>(
    'SELECT a.* FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ? ORDER BY a.created_at',
    email,
  )

describe('agreement journeys', () => {
  it('(1) an administrator creates an agreement for a resident, with the docs/PRODUCT.md §5 messages for what is missing', () =>
    journey('create', async (_context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Agreements' }).click()
      await page.getByRole('link', { name: 'Add agreement' }).click()
      const form = page.getByRole('form', { name: 'Create agreement' })
      await form.getByRole('button', { name: 'Create agreement' }).click()
      for (const message of [
        'Please enter the full name',
        'Please choose at least one address',
        'Please choose the payment provider',
        'Please enter start payment date',
      ])
        await form.locator('.field-error', { hasText: message }).first().waitFor()

      // The member picker offers the association's own people only (decision 0037): its staff and its agreements' members.
      const picker = form.getByLabel('Existing member')
      const offered = await picker.locator('option').allInnerTexts()
      expect(offered).toEqual(expect.arrayContaining(['New member', 'Karen Holm (formand@solgaarden.dk)', 'Emma Hansen (beboer03@solgaarden.dk)']))
      expect(offered.filter((o) => /havnehuset|superadmin/i.test(o))).toEqual([])
      await picker.selectOption({ label: 'Emma Hansen (beboer03@solgaarden.dk)' })
      expect(await form.getByLabel('Full name').inputValue()).toBe('Emma Hansen')
      expect(await form.getByLabel('Email', { exact: true }).inputValue()).toBe('beboer03@solgaarden.dk')
      await picker.selectOption({ label: 'New member' })
      expect(await form.getByLabel('Full name').inputValue()).toBe('')
      await form.getByLabel('Full name').fill('Noah Thomsen')
      await form.getByLabel('Email', { exact: true }).fill('beboer10@solgaarden.dk')
      await form.getByLabel('Address', { exact: true }).selectOption({ index: 1 })
      await form.getByRole('button', { name: 'Add address' }).click()
      await form.getByLabel('Address', { exact: true }).selectOption({ index: 1 })
      await form.getByRole('button', { name: 'Add address' }).click()
      await expect.poll(() => form.getByRole('list', { name: 'Chosen addresses' }).getByRole('listitem').count()).toBe(2)
      await form.getByLabel('Payment provider').selectOption({ index: 1 })
      await form.getByLabel('Start payment date').fill('2027-01-01')
      await form.getByLabel('Monthly').check()

      const part = (n: number) => form.getByRole('group', { name: `Part ${n}` })
      if ((await part(1).count()) === 0) await form.getByRole('button', { name: 'Add part' }).click()
      await part(1).getByLabel('Type').selectOption('COMMON_EXPENSES')
      await part(1).getByLabel('Description').fill('Boligafgift')
      await part(1).getByLabel('Price (DKK)').fill('4250.50')
      await form.getByRole('button', { name: 'Add part' }).click()
      await part(2).getByLabel('Type').selectOption('HOT_WATER')
      await part(2).getByLabel('Description').fill('Aconto varmt vand')
      await part(2).getByLabel('Price (DKK)').fill('312.25')
      await snapBoth(page, 'agreement-create')
      await form.getByRole('button', { name: 'Create agreement' }).click()

      await page.waitForURL(/\/agreements$/)
      const row = page.getByRole('row', { name: /Noah Thomsen/ })
      await row.waitFor()
      await expect.poll(() => row.innerText()).toMatch(/Created/)
      await expect.poll(() => agreementOf('beboer10@solgaarden.dk').length, { timeout: 15_000 }).toBe(1)
      const [created] = agreementOf('beboer10@solgaarden.dk')
      // Kroner typed with decimals arrive as exact øre: 4 250,50 + 312,25 kr.
      expect(created).toMatchObject({ status: 'CREATED', price_ore: 456_275 })
      expect(serverRows('SELECT count(*) AS n FROM agreement_addresses WHERE agreement_id = ?', created!.id)).toEqual([{ n: 2 }])
      // The number comes from the server and replaces the local row.
      await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain(`#${created!.external_seq}`)
      await snapBoth(page, 'agreement-list-admin')
    }))

  it('(3) the accountant offline at a board meeting edits one agreement and terminates another; after a browser restart online, the server holds exactly those changes', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'boligkasse-profile-'))
    const headers = clientIp()
    const [edited] = agreementOf('beboer03@solgaarden.dk')
    const [terminated] = agreementOf('beboer04@solgaarden.dk')
    const everything = () => serverRows<{ id: string; version: number; status: string }>('SELECT id, version, status FROM agreements ORDER BY id')
    let context = await launchProfile(profile, suite.server.url, { headers })
    try {
      // Mette Larsen, accountant, uses the app in Danish (a board member only reads agreements, decision 0024).
      const page = context.pages()[0] ?? (await context.newPage())
      await signIn(page, 'kasserer@solgaarden.dk')
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Agreements') })
        .click()
      await page.getByRole('link', { name: 'Emma Hansen' }).waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')
      const before = everything()

      await context.route('**/api/**', (route) => route.abort('internetdisconnected'))

      // Edit the parts of Emma Hansen's agreement: change the heating on account and add a fee.
      await page.getByRole('link', { name: 'Emma Hansen' }).click()
      await page.getByRole('link', { name: danish('Edit'), exact: true }).click()
      const part = (n: number) => page.getByRole('group', { name: danish('Part {n}').replace('{n}', String(n)) })
      await part(2).getByLabel(danish('Price (DKK)')).fill('700,00')
      await page.getByRole('button', { name: danish('Add part') }).click()
      await part(4).getByLabel(danish('Type')).selectOption('FEE')
      await part(4).getByLabel(danish('Description')).fill('Vaskeri')
      await part(4).getByLabel(danish('Price (DKK)')).fill('25,50')
      await page.getByRole('button', { name: danish('Save changes') }).click()
      await page.getByText(danish('Not yet synced')).first().waitFor()
      await page.getByRole('cell', { name: 'Vaskeri' }).waitFor()

      // Terminate Mikkel Andersen's agreement without a last payment.
      await page
        .getByRole('link', { name: danish('Back to agreements') })
        .first()
        .click()
      await page.getByRole('link', { name: 'Mikkel Andersen' }).click()
      await page.getByRole('button', { name: danish('Terminate'), exact: true }).click()
      const dialog = page.getByRole('dialog', { name: danish('Terminate agreement') })
      const terminationDate = await dialog.getByLabel(danish('Termination date is set to:')).inputValue()
      await dialog.getByRole('button', { name: danish('Terminate'), exact: true }).click()
      await dialog.waitFor({ state: 'hidden' })
      await page.getByText(danish('Not yet synced')).first().waitFor()
      await snapBoth(page, 'agreement-offline-terminated')
      // Nothing reached the server yet.
      expect(everything()).toEqual(before)

      // The meeting ends: the browser is closed with the changes still queued.
      await context.close()
      context = await launchProfile(profile, suite.server.url, { headers })
      const later = context.pages()[0] ?? (await context.newPage())
      await later.goto('/agreements')
      await expect.poll(() => agreementOf('beboer04@solgaarden.dk')[0]?.status, { timeout: 20_000 }).toBe('CANCELED')
      await expect.poll(() => agreementOf('beboer03@solgaarden.dk')[0]?.version, { timeout: 20_000 }).toBe(edited!.version + 1)

      const after = everything()
      const changed = after.filter((a) => {
        const old = before.find((b) => b.id === a.id)
        return !old || old.version !== a.version || old.status !== a.status
      })
      expect(changed.map((a) => a.id).sort()).toEqual([edited!.id, terminated!.id].sort())
      expect(agreementOf('beboer04@solgaarden.dk')[0]).toMatchObject({ version: terminated!.version + 1, termination_date: terminationDate })
      const parts = serverRows<{ type: string; description: string; price_ore: number }>(
        'SELECT type, description, price_ore FROM agreement_parts WHERE agreement_id = ? ORDER BY position',
        edited!.id,
      )
      expect(parts).toEqual([
        { type: 'COMMON_EXPENSES', description: 'Boligafgift', price_ore: 450_000 },
        { type: 'HEAT', description: 'Aconto varme', price_ore: 70_000 },
        { type: 'COLD_WATER', description: 'Aconto vand', price_ore: 18_000 },
        { type: 'FEE', description: 'Vaskeri', price_ore: 2_550 },
      ])
      expect(agreementOf('beboer03@solgaarden.dk')[0]?.price_ore).toBe(450_000 + 70_000 + 18_000 + 2_550)
      // Each change was applied once: one idempotency record per queued change.
      await later
        .getByText(danish('Not yet synced'))
        .waitFor({ state: 'detached' })
        .catch(() => undefined)
    } catch (err) {
      await snapAll(context, 'agreements-offline')
      throw err
    } finally {
      await context.close().catch(() => undefined)
      rmSync(profile, { recursive: true, force: true })
    }
  })

  it('(2) a resident accepts a new agreement, approves it in Vipps MobilePay and sees it accepted', () =>
    journey('accept', async (_context, page) => {
      // Lars Pedersen uses the app in Danish.
      const email = 'beboer02@solgaarden.dk'
      const [agreement] = agreementOf(email)
      expect(agreement?.status).toBe('CREATED')
      await signIn(page, email)
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Agreements') })
        .click()
      await page.getByRole('link', { name: 'Lars Pedersen' }).click()
      await page.getByRole('heading', { level: 1, name: `${danish('Agreement')} ${agreement!.external_seq}` }).waitFor()
      await snapBoth(page, 'agreement-view-member')

      await page.getByRole('button', { name: danish('Accept'), exact: true }).click()
      await page.waitForURL(/vipps-emulator/)
      await page.getByLabel(/Mobile number|Mobilnummer/).fill('4531000002')
      await page.getByRole('button', { name: /^(Approve|Godkend)$/ }).click()
      await page.waitForURL(new RegExp(`/agreements/${agreement!.id}`))
      await page.getByText(danish('The agreement is accepted. The payments are collected through Vipps MobilePay.')).waitFor({ timeout: 30_000 })
      expect(agreementOf(email)[0]?.status).toBe('ACCEPTED')
      await snapBoth(page, 'agreement-accepted')
    }))

  it('(4) a board member reads the agreements with no admin action: no add, no status filters but "All", no edit, terminate or one-off payment; the server refuses them too', () =>
    journey('board-member', async (_context, page) => {
      // Jonas Berg, board member, uses the app in Danish.
      await signIn(page, 'bestyrelse@solgaarden.dk')
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Agreements') })
        .click()
      await page.getByRole('link', { name: 'Emma Hansen' }).waitFor()
      await expect.poll(() => page.getByRole('link', { name: danish('Add agreement') }).count()).toBe(0)
      const filters = page.getByRole('group', { name: danish('Filter by status') }).getByRole('button')
      expect(await filters.allInnerTexts()).toEqual([danish('All')])
      await snapBoth(page, 'agreement-list-boardmember')

      await page.getByRole('link', { name: 'Emma Hansen' }).click()
      await page.getByRole('heading', { level: 1, name: new RegExp(danish('Agreement')) }).waitFor()
      await page.getByRole('link', { name: danish('Payments') }).waitFor()
      for (const name of [danish('Edit'), danish('Request One Off Payment')]) expect(await page.getByRole('link', { name, exact: true }).count()).toBe(0)
      expect(await page.getByRole('button', { name: danish('Terminate'), exact: true }).count()).toBe(0)
      await snapBoth(page, 'agreement-view-boardmember')

      // The forms say so too, and a status address shows the whole list.
      await page.goto('/agreements/create')
      await page.getByRole('heading', { level: 1, name: danish('Create agreement') }).waitFor()
      expect(await page.getByRole('form', { name: danish('Create agreement') }).count()).toBe(0)
      await page.goto('/agreements/status/ACCEPTED')
      await page.waitForURL(/\/agreements$/)

      // The server refuses what the screens do not offer (a board member's termination was once accepted).
      const [ida] = agreementOf('beboer05@solgaarden.dk')
      const token = await bearerTokenOf(page)
      const res = await page.request.post(`/api/agreement/${ida!.id}/cancel`, {
        headers: { Authorization: `Bearer ${token}` },
        data: { terminationDate: '2027-12-01', finalPaymentRequired: false },
      })
      expect(res.status()).toBe(403)
      const oneOff = await page.request.post(`/api/agreement/${ida!.id}/requestOneTimeCharge`, {
        headers: { Authorization: `Bearer ${token}` },
        data: { amount: 10_000, description: 'Nøgle' },
      })
      expect(oneOff.status()).toBe(403)
      expect(agreementOf('beboer05@solgaarden.dk')[0]?.status).toBe('ACCEPTED')
    }))

  it('(5) /agreements/status/ACCEPTED lists the accepted agreements with that filter pressed; the filters are addresses; the terminate dialog says what the last payment charges', () =>
    journey('status-route', async (_context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      await page.goto('/agreements/status/ACCEPTED')
      await page.getByRole('heading', { level: 1, name: 'Agreements' }).waitFor()
      const filters = page.getByRole('group', { name: 'Filter by status' })
      await expect.poll(() => filters.getByRole('button', { name: 'Accepted' }).getAttribute('aria-pressed')).toBe('true')
      const rows = page.getByRole('table', { name: 'Agreements' }).locator('tbody tr')
      const accepted = serverRows<{ n: number }>("SELECT count(*) AS n FROM agreements WHERE status = 'ACCEPTED'")[0]!.n
      await expect.poll(() => rows.count()).toBe(accepted)
      for (const text of await rows.allInnerTexts()) expect(text).toMatch(/Accepted/)
      // Every demo agreement is collected (decision 0036): none says otherwise.
      expect(await page.getByText(/Not collected/).count()).toBe(0)
      await snapBoth(page, 'agreement-list-accepted')

      await filters.getByRole('button', { name: 'Created' }).click()
      await page.waitForURL(/\/agreements\/status\/CREATED$/)
      await filters.getByRole('button', { name: 'All' }).click()
      await page.waitForURL(/\/agreements$/)
      await page.goto('/agreements/status/accepted')
      await expect.poll(() => filters.getByRole('button', { name: 'Accepted' }).getAttribute('aria-pressed')).toBe('true')
      await page.goto('/agreements/status/NOPE')
      await page
        .getByText(/Page not found/i)
        .first()
        .waitFor()

      // The last payment of a termination on the first of a month two months ahead: the whole month before it, once.
      await page.goto('/agreements/status/ACCEPTED')
      await page.getByRole('link', { name: 'Emma Hansen' }).click()
      await page.getByRole('heading', { level: 1, name: /Agreement \d+/ }).waitFor()
      await snapBoth(page, 'agreement-view-admin')
      await page.getByRole('button', { name: 'Terminate', exact: true }).click()
      const dialog = page.getByRole('dialog', { name: 'Terminate agreement' })
      await dialog.getByLabel('Make last payment').check()
      const date = dialog.getByLabel('Termination date is set to:')
      const [emma] = agreementOf('beboer03@solgaarden.dk')
      const next = serverRows<{ d: string }>('SELECT next_regular_payment_date AS d FROM agreements WHERE id = ?', emma!.id)[0]!.d
      const [y, m] = next.split('-').map(Number) as [number, number]
      const end = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`
      await date.fill(end)
      await dialog.getByText(/^Last payment: .* It takes the place of the regular payment for those days\.$/).waitFor()
      await snapBoth(page, 'agreement-terminate-last-payment')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
    }))

  it('(6) an accepted agreement whose payment provider is switched off says it is not collected, in the list and on the agreement (English and Danish)', () =>
    journey('not-collected', async (_context, page) => {
      const api = async (method: string, path: string, body?: unknown, token?: string) =>
        page.request.fetch(`/api${path}`, {
          method,
          headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          data: body === undefined ? undefined : body,
        })
      const login = await api('POST', '/auth/login', { type: 'email', email: 'superadmin@boligkasse.dk', password: 'Gaardlaug-2025' })
      const superToken = ((await login.json()) as { accessToken: string }).accessToken
      const [provider] = serverRows<{ id: string; company_id: string }>(
        "SELECT p.id, p.company_id FROM payment_providers p JOIN companies c ON c.id = p.company_id WHERE c.cvr = '10150817'",
      )
      const toggle = () => api('PATCH', `/company/${provider!.company_id}/payment-providers/${provider!.id}/toggle-active`, undefined, superToken)
      expect((await toggle()).status()).toBe(200)
      try {
        await signIn(page, 'admin@solgaarden.dk')
        await page.goto('/agreements/status/ACCEPTED')
        await page.getByText('Not collected: payment provider switched off').first().waitFor({ timeout: 20_000 })
        await page.getByText(/accepted agreements are not collected/).waitFor()
        await snapBoth(page, 'agreement-list-not-collected')
        await page.getByRole('table', { name: 'Agreements' }).locator('tbody tr').first().getByRole('link').first().click()
        await page.getByText('Payments are not collected').waitFor()
        await snapBoth(page, 'agreement-view-not-collected')
      } finally {
        expect((await toggle()).status()).toBe(200)
      }
    }))

  it('(7) the agreement list and view in Danish at 375 and 1280 px (the chairman)', () =>
    journey('danish', async (_context, page) => {
      await signIn(page, 'formand@solgaarden.dk')
      await page.goto('/agreements')
      await page.getByRole('heading', { level: 1, name: danish('Agreements') }).waitFor()
      await page.getByRole('link', { name: 'Ida Christensen' }).waitFor()
      expect(await page.locator('main').innerText()).not.toMatch(/Denmark/)
      await snapBoth(page, 'agreement-list-da')
      await page.getByRole('link', { name: 'Ida Christensen' }).click()
      await page.getByRole('heading', { level: 1, name: new RegExp(danish('Agreement')) }).waitFor()
      // The heading also names the loading state ("Indlæser aftale"): wait for the agreement itself.
      await expect.poll(() => page.locator('main').innerText(), { timeout: 15_000 }).toMatch(/Danmark/)
      await snapBoth(page, 'agreement-view-da')
    }))
})
