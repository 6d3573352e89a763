/**
 * Dashboard journeys (decision 0060): the company dashboard at /company/dashboard after a billing month of the demo
 * association. A month passes on the built-in Vipps MobilePay clock (billing follows it): every
 * accepted agreement is charged, two charges fail, the accountant refunds part of one, the
 * administrator terminates another. The browser's clock is set to the same business time, so
 * "this month" on the screen is the month billing ran in.
 *
 * (1) The accountant (in Danish) opens the dashboard from the sidebar logo: this month's and this
 *     year's figures are what `GET /company/{id}/charges-statistics` answers for the same dates,
 *     each month of the chart's table too, the outstanding total is the debtor overview's, the
 *     next collection is the agreements' next payment day; the attention list's links lead where
 *     each thing is fixed; axe finds nothing serious, no English is left, no sideways scroll at
 *     375 px; offline the same figures show with the "computed offline" notice.
 * (2) The administrator (in English) sees the company's suspension as the first item, which leads
 *     to the company page, and no collection planned; axe clean at both sizes.
 * (3) A resident who opens the address is sent to their agreements.
 * Screenshots at 375 and 1280 px in both languages go to /tmp/dashboard-shots/.
 */
import { mkdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { statisticsCategories } from '../shared/domain/statistics'
import { englishLeaks, englishMarkers, seriousViolations } from './axe'
import { DEMO_PASSWORD, danish } from './harness'
import { bearerTokenOf, journeySuite, signIn, syncState } from './journeys'

const { suite, clientIp, journey, serverRows, emulator } = journeySuite('dashboard', 27)

const DAY = 24 * 3600 * 1000
const SHOTS = '/tmp/dashboard-shots'
const PHONE = { width: 375, height: 812 }
const DESKTOP = { width: 1280, height: 900 }

/** Calls the API as `token` (from this suite's client IPs) with an Idempotency-Key; answers status and body. */
async function call<T = unknown>(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${suite.server.url}/api${path}`, {
    method,
    headers: {
      ...clientIp(),
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T }
}
async function login(email: string): Promise<string> {
  const res = await call<{ accessToken: string }>('POST', '/auth/login', null, { type: 'email', email, password: DEMO_PASSWORD })
  expect(res.status).toBe(200)
  return res.json.accessToken
}

const companyId = () => serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
type ChargeRow = { id: string; agreement_id: string; status: string; vipps_charge_id: string | null; amount_ore: number }
const charges = () => serverRows<ChargeRow>('SELECT id, agreement_id, status, vipps_charge_id, amount_ore FROM charges ORDER BY due, rowid')
const accepted = () => serverRows<{ n: number }>("SELECT count(*) AS n FROM agreements WHERE status = 'ACCEPTED'")[0]!.n
const agreementOf = (id: string) =>
  serverRows<{ external_seq: number; member: string }>(
    'SELECT a.external_seq, u.full_name AS member FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE a.id = ?',
    id,
  )[0]!

/** The emulator's business time (billing's "now"). */
async function businessNow(): Promise<string> {
  const res = await fetch(`${suite.server.url}/vipps-emulator/_control/clock`, { headers: clientIp() })
  return ((await res.json()) as { now: string }).now
}
const copenhagenDate = (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' }).format(new Date(iso))

/** What the journeys share: set up once by the first. */
const month = { refunded: { chargeId: '', agreementId: '' }, failed: [] as string[], terminated: '', now: '' }

/** A month passes on the emulator's clock: every accepted agreement is charged; `fail` of the charges fail. */
async function billingMonth(fail: number) {
  const before = charges().map((c) => c.id)
  const fresh = () => charges().filter((c) => !before.includes(c.id))
  const count = accepted()
  await emulator('fail-next-charges', { count: fail })
  await emulator('clock', { advanceMs: 31 * DAY })
  await expect.poll(() => fresh().length, { timeout: 40_000 }).toBe(count)
  await expect.poll(() => charges().every((c) => c.vipps_charge_id), { timeout: 40_000 }).toBe(true)
  await emulator('clock', { advanceMs: 2 * DAY })
  await expect.poll(() => fresh().every((c) => c.status === 'EXECUTED' || c.status === 'FAILED'), { timeout: 40_000 }).toBe(true)
  return fresh()
}

/** The browser runs on the business clock (the screen's "today" and "this month"). */
async function onBusinessTime(context: BrowserContext) {
  await context.clock.install({ time: new Date(month.now) })
}

/** The figures of a period card as the screen holds them (øre, from data-ore). */
async function periodOf(page: Page, period: 'month' | 'year') {
  const card = page.locator(`[data-period="${period}"]`)
  const ore = async (figure: string) => Number(await card.locator(`[data-figure="${figure}"]`).getAttribute('data-ore'))
  return {
    startDate: (await card.getAttribute('data-start'))!,
    endDate: (await card.getAttribute('data-end'))!,
    collected: await ore('collected'),
    refunded: await ore('refunded'),
    net: await ore('net'),
    outstanding: await ore('outstanding'),
  }
}

type Statistics = { statistics: { summary: Record<string, number> & { total: number } }; startDate: string; endDate: string }
const statisticsOf = async (token: string, startDate: string, endDate: string) => {
  const res = await call<Statistics>('GET', `/company/${companyId()}/charges-statistics?type=custom&startDate=${startDate}&endDate=${endDate}`, token)
  expect(res.status).toBe(200)
  expect([res.json.startDate, res.json.endDate]).toEqual([startDate, endDate])
  return res.json.statistics.summary
}

/** Executed invoices (collected) and credit notes (refunded) of a period in the server's database, øre. */
const ledger = (startDate: string, endDate: string) =>
  serverRows<{ collected: number | null; refunded: number | null }>(
    `SELECT SUM(CASE kind WHEN 'INVOICE' THEN total_ore END) AS collected, SUM(CASE kind WHEN 'CREDIT_NOTE' THEN total_ore END) AS refunded
     FROM invoices WHERE company_id = ? AND status = 'EXECUTED' AND COALESCE(payment_date, issue_date) BETWEEN ? AND ?`,
    companyId(),
    startDate,
    endDate,
  )[0]!

async function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
}

async function screenshots(page: Page, lang: 'en' | 'da', name = 'dashboard') {
  mkdirSync(SHOTS, { recursive: true })
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    await page.screenshot({ path: `${SHOTS}/${name}-${lang}-${size.width}.png`, fullPage: true })
  }
  await page.setViewportSize(DESKTOP)
}

/** axe at both sizes (with the table open), and at 375 px no sideways scroll. */
async function checkLayout(page: Page) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await seriousViolations(page), `axe at ${size.width}`).toEqual([])
    expect(await noSidewaysScroll(page), `sideways scroll at ${size.width}`).toBe(true)
  }
  await page.setViewportSize(DESKTOP)
}

const dashboardHeading = (page: Page, lang: 'en' | 'da') => page.getByRole('heading', { level: 1, name: lang === 'da' ? danish('Dashboard') : 'Dashboard' })

describe('company dashboard', () => {
  it(
    "(1) after a billing month the accountant's dashboard shows the statistics endpoint's figures, links to what needs attention, and works offline",
    () =>
      journey('accountant', async (context, page) => {
        // The billing month: two charges fail; the accountant refunds 100.50 kr. of a collected one; the administrator terminates another.
        const fresh = await billingMonth(2)
        month.failed = fresh.filter((c) => c.status === 'FAILED').map((c) => c.agreement_id)
        expect(month.failed).toHaveLength(2)
        const executed = fresh.filter((c) => c.status === 'EXECUTED')
        month.refunded = { chargeId: executed[0]!.id, agreementId: executed[0]!.agreement_id }
        const accountant = await login('kasserer@solgaarden.dk')
        const refund = await call('POST', `/agreement/${month.refunded.agreementId}/refund`, accountant, {
          chargeId: month.refunded.chargeId,
          amount: 10_050,
          description: 'Fejl i aconto varme',
        })
        expect(refund.status).toBe(201)
        await expect
          .poll(() => serverRows<{ status: string }>("SELECT status FROM invoices WHERE kind = 'CREDIT_NOTE'").map((r) => r.status), { timeout: 30_000 })
          .toEqual(['EXECUTED'])
        month.now = await businessNow()
        const today = copenhagenDate(month.now)
        month.terminated = executed[1]!.agreement_id
        const admin = await login('admin@solgaarden.dk')
        const ends = new Date(new Date(`${today}T12:00:00Z`).getTime() + 12 * DAY).toISOString().slice(0, 10)
        expect((await call('POST', `/agreement/${month.terminated}/cancel`, admin, { terminationDate: ends, finalPaymentRequired: false })).status).toBe(200)

        // Mette Larsen, accountant, uses the app in Danish; the sidebar logo leads staff to the dashboard.
        await onBusinessTime(context)
        await signIn(page, 'kasserer@solgaarden.dk')
        await page.locator('a.logo-link').click()
        await expect.poll(() => new URL(page.url()).pathname).toBe('/company/dashboard')
        await dashboardHeading(page, 'da').waitFor()
        await page.locator('[data-period="month"] [data-figure="net"]').waitFor({ timeout: 20_000 })
        await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')
        expect(await page.locator('.dashboard-offline').count()).toBe(0)

        // This month and this year so far: the statistics endpoint's total for the same dates, collected and refunded as in the ledger.
        // (The screen follows the local copy: the last pulled rows reach it within a second of the pull.)
        const token = await bearerTokenOf(page)
        const yearTotal = (await statisticsOf(token, `${today.slice(0, 4)}-01-01`, today)).total
        expect(yearTotal).toBeGreaterThan(0)
        await expect.poll(async () => (await periodOf(page, 'year')).net, { timeout: 10_000 }).toBe(yearTotal)
        const shown = { month: await periodOf(page, 'month'), year: await periodOf(page, 'year') }
        expect([shown.month.startDate, shown.month.endDate]).toEqual([`${today.slice(0, 7)}-01`, today])
        expect([shown.year.startDate, shown.year.endDate]).toEqual([`${today.slice(0, 4)}-01-01`, today])
        for (const p of [shown.month, shown.year]) {
          expect(p.net).toBe((await statisticsOf(token, p.startDate, p.endDate)).total)
          const db = ledger(p.startDate, p.endDate)
          expect([p.collected, p.refunded]).toEqual([db.collected ?? 0, db.refunded ?? 0])
          expect(p.net).toBe(p.collected - p.refunded)
        }
        // What the month held: the collected charges, the refund, the failed charges unpaid.
        const collected = executed.reduce((s, c) => s + c.amount_ore, 0)
        expect(shown.month).toMatchObject({ collected, refunded: 10_050, net: collected - 10_050 })
        const failedAmount = fresh.filter((c) => c.status === 'FAILED').reduce((s, c) => s + c.amount_ore, 0)
        expect(shown.month.outstanding).toBe(failedAmount)

        // The outstanding total is the debtor overview's.
        const debtors = await call<{ total: { count: number; amount: number } }>('GET', `/debtors?companyId=${companyId()}`, token)
        expect(Number(await page.locator('[data-figure="outstanding-total"]').getAttribute('data-ore'))).toBe(debtors.json.total.amount)
        expect(debtors.json.total.amount).toBe(failedAmount)

        // The next collection: the accepted agreements' next payment day, each its price.
        const next = serverRows<{ date: string; amount: number; n: number }>(
          `SELECT next_regular_payment_date AS date, SUM(price_ore) AS amount, COUNT(*) AS n FROM agreements WHERE status = 'ACCEPTED'
           AND next_regular_payment_date = (SELECT MIN(next_regular_payment_date) FROM agreements WHERE status = 'ACCEPTED' AND next_regular_payment_date >= ?)`,
          today,
        )[0]!
        const collection = page.locator('[data-section="collection"]')
        expect(await collection.locator('[data-date]').getAttribute('data-date')).toBe(next.date)
        expect(Number(await collection.locator('dd[data-ore]').first().getAttribute('data-ore'))).toBe(next.amount)

        // Each month of the chart's table is the statistics endpoint's month, category by category.
        await page.getByText(danish('Show as table'), { exact: true }).click()
        const rows = await page.locator('table.table-dashboard tbody tr').evaluateAll((trs) =>
          trs.map((tr) => ({
            month: tr.getAttribute('data-month')!,
            cells: Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.category!, Number(td.dataset.value)])),
          })),
        )
        expect(rows).toHaveLength(12)
        expect(rows.at(-1)!.month).toBe(today.slice(0, 7))
        for (const row of rows) {
          const [y, m] = row.month.split('-').map(Number) as [number, number]
          const end = `${row.month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`
          const summary = await statisticsOf(token, `${row.month}-01`, end)
          expect(row.cells.total, row.month).toBe(summary.total)
          for (const c of statisticsCategories) expect(row.cells[c] ?? 0, `${row.month} ${c}`).toBe(summary[c])
        }
        expect(rows.at(-1)!.cells.total).toBe(collected - 10_050)
        // One chart per category with money, each an image with its words.
        const charts = page.locator('figure.dashboard-chart svg[role="img"]')
        expect(await charts.count()).toBe(3)
        for (const svg of await charts.all()) {
          expect(await svg.locator('title').textContent()).toBeTruthy()
          expect(await svg.locator('desc').textContent()).toContain(danish('The heating and water period ({period}) is shaded.').split(' (')[0]!)
        }
        expect(await page.locator('.month-chart-band').count()).toBe(3)

        // Layout and accessibility, in Danish with no English left.
        await checkLayout(page)
        const allowed = serverRows<{ v: string }>('SELECT full_name AS v FROM users UNION SELECT name FROM companies UNION SELECT acronym FROM companies').map(
          (r) => r.v,
        )
        expect(await englishLeaks(page, { markers: englishMarkers(), allowed: [...allowed, 'Vipps MobilePay', 'MobilePay', 'Vipps'] })).toEqual([])
        await screenshots(page, 'da')

        // The attention list: the provider without webhooks, the two failed charges, the termination, the agreement awaiting acceptance.
        const list = page.locator('ul.attention-list > li')
        await expect.poll(() => list.count()).toBe(5)
        const links = await page.locator('ul.attention-list a').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname))
        const provider = serverRows<{ id: string }>('SELECT id FROM payment_providers WHERE company_id = ?', companyId())[0]!.id
        const awaiting = serverRows<{ id: string }>("SELECT id FROM agreements WHERE status = 'CREATED'")[0]!.id
        expect(links[0]).toBe(`/company/${companyId()}/payment-provider/${provider}`)
        expect(links.slice(1, 3).sort()).toEqual(month.failed.map((id) => `/charges/${id}`).sort())
        expect(links.slice(3)).toEqual([`/agreements/${month.terminated}`, `/agreements/${awaiting}`])
        const failed = agreementOf(month.failed[0]!)
        const failedItem = list.filter({ hasText: `${failed.external_seq}, ${failed.member}` })
        expect(await failedItem.innerText()).toContain(danish('Failed charges: agreement {externalId}, {memberName}').split(':')[0]!)

        // Each link leads where the thing is fixed (by keyboard, as a link should).
        await failedItem.getByRole('link').focus()
        await page.keyboard.press('Enter')
        await expect.poll(() => new URL(page.url()).pathname).toBe(`/charges/${month.failed[0]}`)
        await page.getByRole('heading', { level: 1 }).waitFor()
        await page.goBack()
        await dashboardHeading(page, 'da').waitFor()
        await page.locator('ul.attention-list a').first().click()
        await expect.poll(() => new URL(page.url()).pathname).toBe(links[0])
        await page.getByRole('heading', { level: 1, name: 'Vipps MobilePay' }).waitFor()
        await page.goBack()
        await page.locator('ul.attention-list a').nth(3).click()
        await expect.poll(() => new URL(page.url()).pathname).toBe(`/agreements/${month.terminated}`)
        await page.getByText(danish('Termination date'), { exact: true }).first().waitFor()
        await page.goBack()
        await page.locator('ul.attention-list a').nth(4).click()
        await expect.poll(() => new URL(page.url()).pathname).toBe(`/agreements/${awaiting}`)
        await page.goBack()
        await dashboardHeading(page, 'da').waitFor()

        // Offline (the browser's own): the same figures from this device, said to be computed offline.
        await page.evaluate(async () => void (await navigator.serviceWorker.ready))
        await context.setOffline(true)
        await page.reload()
        await dashboardHeading(page, 'da').waitFor({ timeout: 20_000 })
        await page
          .getByText(danish('You are offline. These figures are computed from the data on this device and may not include the latest payments.'))
          .waitFor()
        await page.locator('[data-period="month"] [data-figure="net"]').waitFor()
        expect({ month: await periodOf(page, 'month'), year: await periodOf(page, 'year') }).toEqual(shown)
        expect(await list.count()).toBe(5)
        await screenshots(page, 'da', 'dashboard-offline')
        await context.setOffline(false)
      }),
    240_000,
  )

  it('(2) the administrator (in English) sees a suspended company first, leading to the company page, and no collection planned', () =>
    journey('administrator', async (context, page) => {
      const superAdmin = await login('superadmin@boligkasse.dk')
      expect((await call('POST', `/company/${companyId()}/suspend`, superAdmin)).status).toBe(200)
      try {
        await onBusinessTime(context)
        await signIn(page, 'admin@solgaarden.dk')
        await page.locator('a.logo-link').click()
        await dashboardHeading(page, 'en').waitFor()
        const first = page.locator('ul.attention-list > li').first()
        await expect.poll(() => first.innerText(), { timeout: 20_000 }).toContain('The company is not active')
        expect(await first.innerText()).toContain('Status: Suspended.')
        await expect.poll(() => page.locator('[data-section="collection"] [data-date]').innerText(), { timeout: 20_000 }).toBe('None planned')
        await page.getByText('Show as table', { exact: true }).click()
        await checkLayout(page)
        await screenshots(page, 'en')
        await first.getByRole('link', { name: 'The company is not active' }).click()
        await expect.poll(() => new URL(page.url()).pathname).toBe(`/company/${companyId()}`)
        await page.getByRole('heading', { level: 1, name: 'Andelsboligforeningen Solgården' }).waitFor()
      } finally {
        expect((await call('POST', `/company/${companyId()}/activate`, superAdmin)).status).toBe(200)
      }
    }))

  it('(3) a resident who opens the dashboard is sent to their agreements', () =>
    journey('resident', async (_context, page) => {
      await signIn(page, 'beboer03@solgaarden.dk')
      await page.goto('/company/dashboard')
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/agreements')
    }))
})
