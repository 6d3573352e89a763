/**
 * Billing journeys (decision 0029), on one association's year: a resident's accepted agreement is billed when the
 * (built-in) Vipps MobilePay clock moves a month, and the resident sees the new invoice; a charge
 * fails and the agreement shows Overdue; the accountant refunds part of a charge and a credit note
 * appears; a refund requested offline is sent exactly once after reconnecting.
 *
 * The journeys run in order and build on each other (one agreement, its charges over time).
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, danish } from './harness'
import { journeySuite, signIn, snapBoth } from './journeys'

const { suite, clientIp, journey, serverRows } = journeySuite('billing', 8)

const RESIDENT = 'beboer02@solgaarden.dk'
const DAY = 24 * 3600 * 1000

async function api(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${suite.server.url}${path}`, {
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
  return { status: res.status, json: text ? JSON.parse(text) : undefined }
}
const emulator = (path: string, body: unknown = {}) => api('POST', `/vipps-emulator/_control/${path}`, null, body)

const agreement = () =>
  serverRows<{ id: string; status: string; vipps_agreement_id: string | null; overdue: number | null }>(
    'SELECT a.* FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ?',
    RESIDENT,
  )[0]!
const chargesOf = (agreementId: string) =>
  serverRows<{ id: string; status: string; amount_ore: number; refunded_ore: number; due: string; vipps_charge_id: string | null }>(
    'SELECT * FROM charges WHERE agreement_id = ? ORDER BY due',
    agreementId,
  )
const invoicesOf = (agreementId: string) =>
  serverRows<{ kind: string; number: number }>('SELECT kind, number FROM invoices WHERE agreement_id = ? ORDER BY number', agreementId)

/**
 * A month passes on the emulator's business clock, which billing follows: the period's charge is
 * made (with its invoice) and sent to Vipps MobilePay, due the next day as a caught-up charge is;
 * two more days and Vipps has tried to collect it.
 */
async function monthPasses(agreementId: string) {
  const before = chargesOf(agreementId).length
  expect((await emulator('clock', { advanceMs: 31 * DAY })).status).toBe(200)
  await expect.poll(() => chargesOf(agreementId).length > before && chargesOf(agreementId).every((c) => c.vipps_charge_id), { timeout: 40_000 }).toBe(true)
  expect((await emulator('clock', { advanceMs: 2 * DAY })).status).toBe(200)
}

async function refundThroughForm(page: Page, amount: string, description: string) {
  await page.getByLabel(danish('Amount (DKK)')).fill(amount)
  await page.getByLabel(danish('Description'), { exact: true }).fill(description)
  await page.getByRole('button', { name: danish('Create refund') }).click()
}

describe('billing journeys', () => {
  it('(1) a month passes and the resident sees the new invoice of their accepted agreement', () =>
    journey('invoice', async (_context, page) => {
      // The resident accepted in Vipps MobilePay (the agreements journeys do this in the browser).
      const login = await api('POST', '/api/auth/login', null, { type: 'email', email: RESIDENT, password: DEMO_PASSWORD })
      const { id } = agreement()
      expect((await api('POST', `/api/agreement/${id}/accept`, login.json.accessToken)).status).toBe(200)
      expect((await emulator(`approve/${agreement().vipps_agreement_id}`, { phoneNumber: '4531000002' })).status).toBe(200)
      await expect.poll(() => agreement().status, { timeout: 20_000 }).toBe('ACCEPTED')

      const before = invoicesOf(id).length
      await monthPasses(id)
      await expect.poll(() => invoicesOf(id).length, { timeout: 30_000 }).toBeGreaterThan(before)
      await expect.poll(() => chargesOf(id).some((c) => c.status === 'EXECUTED'), { timeout: 30_000 }).toBe(true)
      const newest = invoicesOf(id).at(-1)!

      // Lars Pedersen uses the app in Danish.
      await signIn(page, RESIDENT)
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Invoices') })
        .click()
      await page.getByRole('link', { name: String(newest.number), exact: true }).click()
      await page.getByRole('heading', { level: 1, name: `${danish('Invoice {number}').replace('{number}', String(newest.number))}` }).waitFor()
      // One due date (decision 0043): the invoice is due the day its charge is withdrawn.
      await page.getByText(/^Beløbet trækkes automatisk via Vipps MobilePay på forfaldsdagen/).waitFor()
      await snapBoth(page, 'invoice-view')
    }))

  it('(2) a charge fails and the agreement shows Overdue', () =>
    journey('overdue', async (_context, page) => {
      const { id } = agreement()
      // Every agreement of the month is charged (the demo's too, decision 0036), in no set order: all of them fail.
      const accepted = serverRows<{ n: number }>("SELECT count(*) AS n FROM agreements WHERE status = 'ACCEPTED'")[0]!.n
      expect((await emulator('fail-next-charges', { count: accepted })).status).toBe(200)
      await monthPasses(id)
      await expect.poll(() => chargesOf(id).at(-1)?.status, { timeout: 30_000 }).toBe('FAILED')

      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Agreements' }).click()
      const row = page.getByRole('row', { name: /Lars Pedersen/ })
      await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain('Overdue')
      await row.getByRole('link', { name: 'Lars Pedersen' }).click()
      await page.getByText('A payment has failed and is not settled yet. Reminders are sent by e-mail.').waitFor()
      await snapBoth(page, 'agreement-overdue')
    }))

  it('(3) the accountant refunds part of a charge and a credit note appears; (4) a refund made offline is sent once', () =>
    journey('refund', async (context, page) => {
      const { id } = agreement()
      const executed = chargesOf(id).find((c) => c.status === 'EXECUTED')!
      // Mette Larsen, accountant, uses the app in Danish.
      await signIn(page, 'kasserer@solgaarden.dk')
      await page.goto(`/charges/${id}`)
      await page
        .getByRole('link', { name: /^Refundér/ })
        .first()
        .click()
      await refundThroughForm(page, '100,50', 'Fejl i aconto varme')
      await page.getByText(danish('Refund created successfully!')).waitFor()
      await expect.poll(() => chargesOf(id).find((c) => c.id === executed.id)?.refunded_ore, { timeout: 30_000 }).toBe(10_050)
      await expect.poll(() => invoicesOf(id).filter((i) => i.kind === 'CREDIT_NOTE').length, { timeout: 15_000 }).toBe(1)

      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: danish('Invoices') })
        .click()
      await page
        .getByRole('row', { name: new RegExp(danish('Credit note')) })
        .first()
        .waitFor({ timeout: 20_000 })
      await page
        .getByRole('row', { name: new RegExp(danish('Credit note')) })
        .first()
        .getByRole('link')
        .click()
      await page.getByRole('heading', { level: 1, name: new RegExp(danish('Credit note')) }).waitFor()
      await snapBoth(page, 'credit-note')

      // Offline: the refund waits on this device and is sent once when the connection returns.
      let offline = true
      await context.route('**/api/**', (route) => (offline ? route.abort('internetdisconnected') : route.fallback()))
      await page.goto(`/refunds/create?chargeId=${executed.id}&agreementId=${id}`).catch(() => undefined)
      await refundThroughForm(page, '50', 'Rabat')
      // Truthful (decision 0045): queued, not "created successfully", until the server has it.
      await page.getByText(danish('Queued — will be sent when the server answers.')).waitFor()
      expect(await page.getByText(danish('Refund created successfully!'), { exact: false }).count()).toBe(0)
      await page.goto(`/charges/${id}`).catch(() => undefined)
      await page.getByText(danish('Will be sent when online')).first().waitFor()
      expect(chargesOf(id).find((c) => c.id === executed.id)?.refunded_ore).toBe(10_050)

      offline = false
      await page.evaluate(() => dispatchEvent(new Event('online')))
      await expect.poll(() => chargesOf(id).find((c) => c.id === executed.id)?.refunded_ore, { timeout: 30_000 }).toBe(15_050)
      await expect.poll(() => invoicesOf(id).filter((i) => i.kind === 'CREDIT_NOTE').length).toBe(2)
      // At Vipps MobilePay: exactly the two refunds, each once.
      const state = (await api('GET', '/vipps-emulator/_control/state', null)).json as {
        charges: Record<string, { history: { event: string; amount: number; success: boolean }[] }>
      }
      const refunds = Object.values(state.charges).flatMap((c) => c.history.filter((h) => h.event === 'REFUND' && h.success).map((h) => h.amount))
      expect(refunds.sort((a, b) => a - b)).toEqual([5_000, 10_050])
      await page.getByText(danish('Will be sent when online')).waitFor({ state: 'detached', timeout: 20_000 })
    }))
})
