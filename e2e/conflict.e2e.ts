/**
 * An edit made offline meets a colleague's change made online meanwhile (docs/OFFLINE.md "Conflicts and refusals").
 * - Different fields: merged field by field without a question; the server ends with both.
 * - The same field: the conflict screen offers only what both changed, labelled, in kroner and
 *   dates, in the user's language, "yours" beside "now on the server", chosen per field by
 *   keyboard; the server ends with the choice, and with the colleague's other changes.
 * The chairman (Karen Holm, Danish; a board member who may edit agreements) works offline; the
 * administrator changes the agreement through the API. The English pass swaps them.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, danish } from './harness'
import { journeySuite, signIn, snapBoth, syncState } from './journeys'

const { suite, clientIp, journey, serverRows } = journeySuite('conflict', 20)

interface AgreementRow {
  id: string
  version: number
  next_regular_payment_date: string
}
interface PartRow {
  id: string
  type: string
  description: string
  price_ore: number
  vat_rate: number
}

/** Agreement `seq` of Solgården (CVR 10150817). */
const agreement = (seq: number) =>
  serverRows<AgreementRow>(
    "SELECT a.id, a.version, a.next_regular_payment_date FROM agreements a JOIN companies c ON c.id = a.company_id WHERE c.cvr = '10150817' AND a.external_seq = ?",
    seq,
  )[0]!
const partsOf = (id: string) =>
  serverRows<PartRow>('SELECT id, type, description, price_ore, vat_rate FROM agreement_parts WHERE agreement_id = ? ORDER BY position', id)

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${suite.server.url}/api${path}`, {
    method,
    headers: { ...clientIp(), 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined }
}

/** The colleague, online: PATCH /agreement/{id} on the version the server has now. */
async function colleagueEdits(email: string, seq: number, change: (parts: PartRow[]) => Record<string, unknown>) {
  const login = await api('POST', '/auth/login', { type: 'email', email, password: DEMO_PASSWORD })
  expect(login.status).toBe(200)
  const row = agreement(seq)
  const res = await api('PATCH', `/agreement/${row.id}`, change(partsOf(row.id)), {
    Authorization: `Bearer ${login.json.accessToken}`,
    'If-Match': `"${row.version}"`,
  })
  expect(res.status).toBe(200)
}

const asInput = (parts: PartRow[]) => parts.map((p) => ({ id: p.id, type: p.type, description: p.description, price: p.price_ore, vatRate: p.vat_rate }))

/** Opens the edit form of agreement `seq` online, then takes the browser offline. */
async function openEditOffline(page: Page, seq: number, tr: (s: string) => string) {
  const row = agreement(seq)
  await page.goto(`/agreements/${row.id}`)
  await page.getByRole('heading', { level: 1, name: new RegExp(`${seq}`) }).waitFor()
  await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')
  await page.getByRole('link', { name: tr('Edit'), exact: true }).click()
  await page.getByRole('form', { name: tr('Edit agreement') }).waitFor()
  await page.context().setOffline(true)
  return row
}

const part = (page: Page, n: number, tr: (s: string) => string) => page.getByRole('group', { name: tr('Part {n}').replace('{n}', String(n)) })

describe("offline edits meet a colleague's change", () => {
  it('(1) a part description edited offline and the next payment date changed online meanwhile: merged without a question, the server keeps both', () =>
    journey('merge', async (context, page) => {
      await signIn(page, 'formand@solgaarden.dk')
      const row = await openEditOffline(page, 1003, danish)
      const before = partsOf(row.id)
      expect(before[1]!.description).toBe('Aconto varme')

      await part(page, 2, danish).getByLabel(danish('Description')).fill('Aconto varme 2027')
      await page.getByRole('button', { name: danish('Save changes') }).click()
      await page.getByText(danish('Not yet synced')).first().waitFor()

      // Meanwhile the administrator moves the next payment date, online.
      await colleagueEdits('admin@solgaarden.dk', 1003, () => ({ nextRegularPaymentDate: '2027-01-15' }))

      await context.setOffline(false)
      await expect.poll(() => partsOf(row.id)[1]?.description, { timeout: 20_000 }).toBe('Aconto varme 2027')
      await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')
      // Both changes hold; the rest of the parts are as they were; nobody was asked anything.
      expect(agreement(1003).next_regular_payment_date).toBe('2027-01-15')
      expect(partsOf(row.id)).toEqual(before.map((p, i) => (i === 1 ? { ...p, description: 'Aconto varme 2027' } : p)))
      expect(await page.locator('.change-conflict').count()).toBe(0)
    }))

  for (const pass of [
    { lang: 'da', seq: 1004, offline: 'formand@solgaarden.dk', colleague: 'admin@solgaarden.dk', tr: danish },
    { lang: 'en', seq: 1005, offline: 'admin@solgaarden.dk', colleague: 'formand@solgaarden.dk', tr: (s: string) => s },
  ]) {
    it(`(2 ${pass.lang}) both changed the same fields: the conflict screen asks per field in words, by keyboard, and the server ends with the choice`, () =>
      journey(`choose-${pass.lang}`, async (context, page) => {
        const { tr } = pass
        await signIn(page, pass.offline)
        const row = await openEditOffline(page, pass.seq, tr)
        const before = partsOf(row.id)

        // Offline: a new next payment date and a new price of the common expenses (part 1).
        await page.getByLabel(tr('Next payment date')).fill('2027-02-01')
        await part(page, 1, tr)
          .getByLabel(tr('Price (DKK)'))
          .fill(pass.lang === 'da' ? '4.600,00' : '4600.00')
        await page.getByRole('button', { name: tr('Save changes') }).click()
        await page.getByText(tr('Not yet synced')).first().waitFor()

        // Online, the colleague sets both differently, and renames the heating part (no conflict).
        await colleagueEdits(pass.colleague, pass.seq, (parts) => ({
          nextRegularPaymentDate: '2027-03-01',
          parts: asInput(parts).map((p, i) =>
            i === 0 ? { ...p, price: 440_000 }
            : i === 1 ? { ...p, description: 'Fjernvarme' }
            : p,
          ),
        }))

        await context.setOffline(false)
        const screen = page.locator('.change-conflict')
        await screen.waitFor({ timeout: 20_000 })
        const dateGroup = screen.getByRole('group', { name: tr('Next payment date') })
        const partGroup = screen.getByRole('group', { name: new RegExp(`^${tr('Parts')}: Boligafgift`) })
        await dateGroup.waitFor()
        // Words, not field names, JSON or øre: dates as dates, money in kroner.
        const text = await screen.innerText()
        for (const raw of ['nextRegularPaymentDate', '"id"', '460000', '440000', '2027-02-01', '2027-03-01']) expect(text).not.toContain(raw)
        const dates = pass.lang === 'da' ? ['1. februar 2027', '1. marts 2027'] : ['1 February 2027', '1 March 2027']
        expect(await dateGroup.getByRole('radio', { name: new RegExp(`${tr('Your change')}.*${dates[0]}`) }).count()).toBe(1)
        expect(await dateGroup.getByRole('radio', { name: new RegExp(`${tr('Now on the server')}.*${dates[1]}`) }).count()).toBe(1)
        const money = pass.lang === 'da' ? ['4.600,00\u00a0kr.', '4.400,00\u00a0kr.'] : ['DKK\u00a04,600.00', 'DKK\u00a04,400.00']
        expect(await partGroup.innerText()).toContain(money[0])
        expect(await partGroup.innerText()).toContain(money[1])
        // Only the two real conflicts are offered: the heating part's new name is merged silently.
        expect(await screen.getByRole('group').count()).toBe(2)
        expect(text).not.toContain('Fjernvarme')

        await snapBoth(page, `conflict-screen-${pass.lang}`)
        await page.setViewportSize({ width: 375, height: 812 })
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
        // The red toast that announced the conflict takes its own room in the top bar: it covers
        // nothing of the conflict screen on a phone.
        const overlap = await page.evaluate(() => {
          window.scrollTo(0, 0)
          const region = document.querySelector('.toasts')!
          const conflict = document.querySelector('.change-conflict')!.getBoundingClientRect()
          const covering = [...region.querySelectorAll('.toast')].filter((toast) => {
            const r = toast.getBoundingClientRect()
            return r.bottom > conflict.top && r.top < conflict.bottom && r.right > conflict.left && r.left < conflict.right
          })
          return { position: getComputedStyle(region).position, covering: covering.length }
        })
        expect(overlap).toEqual({ position: 'static', covering: 0 })
        await page.setViewportSize({ width: 1280, height: 900 })

        // By keyboard: mine for the date, the server's for the part, then Save choice.
        await dateGroup.getByRole('radio').first().focus()
        await page.keyboard.press('Space')
        await page.keyboard.press('Tab')
        await page.keyboard.press('ArrowDown')
        expect(await partGroup.getByRole('radio', { name: new RegExp(tr('Now on the server')) }).isChecked()).toBe(true)
        await page.keyboard.press('Tab')
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(tr('Save choice'))
        await page.keyboard.press('Enter')

        await expect.poll(() => agreement(pass.seq).next_regular_payment_date, { timeout: 20_000 }).toBe('2027-02-01')
        await screen.waitFor({ state: 'detached' })
        const after = partsOf(row.id)
        expect(after.map((p) => [p.description, p.price_ore])).toEqual([
          [before[0]!.description, 440_000],
          ['Fjernvarme', before[1]!.price_ore],
          [before[2]!.description, before[2]!.price_ore],
        ])
      }))
  }
})
