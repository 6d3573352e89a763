/**
 * Households and moves (docs/PRODUCT.md "Households", decision 0090), in Danish: the chairman finds
 * Emma's household, registers her move-out with a new owner moving in, sees the final settlement
 * (the share of the period up to the move date) before confirming, and the move ends Emma's
 * agreement with its last payment (a FINAL charge with its invoice) and gives the new owner an
 * agreement from the move date with the household's parts. In English, the administrator's list
 * and a household, and the resident's home on her profile. The household picker of the agreement
 * create form: the administrator finds Mikkel's household by address with the keyboard, the form
 * takes its address, its payer and its last agreement's parts, and the agreement is created offline
 * and reaches the server once back online; the chairman's picker in Danish. Every screen is axe-clean and fits
 * 375 px (screenshots under test-results/).
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
import { checkScreen, journeySuite, openFromSidebar, signIn } from './journeys'

const { journey, serverRows } = journeySuite('households', 90)

const CHAIRMAN = 'formand@solgaarden.dk' // Danish
const ADMIN = 'admin@solgaarden.dk' // English
const EMMA = 'beboer03@solgaarden.dk' // English, agreement 1001
const MIKKEL = 'beboer04@solgaarden.dk' // pays for his household; its running agreement's parts are what the picker proposes

/** The first day of the month after next, and the 11th of next month: a move date inside a period not yet charged. */
const nextMonthEleventh = () => {
  const d = new Date()
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 11))
  return next.toISOString().slice(0, 10)
}

describe('households', () => {
  it('the chairman registers a move-out with final settlement and a move-in, in Danish', async () => {
    await journey('move', async (_context, page) => {
      const emma = serverRows<{ id: string; price_ore: number; next: string; vipps: string | null }>(
        `SELECT a.id, a.price_ore, a.next_regular_payment_date AS next, a.vipps_agreement_id AS vipps FROM agreements a JOIN users u ON u.id = a.member_user_id
          WHERE u.email_address = ? AND a.status = 'ACCEPTED'`,
        EMMA,
      )[0]!
      const moveDate = nextMonthEleventh()
      // The days of the period from the next payment date up to the move date, as the server counts them.
      const days = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000)
      const periodEnd = (() => {
        const d = new Date(`${emma.next}T00:00:00Z`)
        return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())).toISOString().slice(0, 10)
      })()
      const share = Math.round((emma.price_ore * days(emma.next, moveDate)) / days(emma.next, periodEnd))

      await signIn(page, CHAIRMAN)
      await openFromSidebar(page, danish('Households'))
      await page.getByLabel(danish('Search households')).fill('Emma')
      await page
        .getByRole('link', { name: /Havrevænget/ })
        .first()
        .click()
      await page.getByRole('heading', { level: 2, name: danish('Register a move') }).waitFor()
      await page.getByLabel(danish('Move date')).fill(moveDate)
      await page
        .getByRole('group', { name: danish('Moving out') })
        .getByLabel('Emma Hansen')
        .check()
      const arriving = page.getByRole('group', { name: danish('Moving in') })
      await arriving.getByLabel(danish('Name')).fill('Jens Nygaard')
      await arriving.getByLabel(danish('E-mail')).fill('jens.nygaard@example.dk')
      await page.getByRole('button', { name: danish('Show final settlement') }).click()
      const preview = page.getByRole('region', { name: danish('Final settlement') })
      await preview.waitFor()
      // The last payment: the share of the period's days up to the move date, in Danish kroner.
      const kroner = (ore: number) => (ore / 100).toLocaleString('da-DK', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      if (emma.vipps) await expect.poll(() => preview.innerText()).toContain(kroner(share))
      await checkScreen(page, 'households-move-preview-da')
      await preview.getByRole('button', { name: danish('Confirm move') }).click()
      await page.getByText(danish('The move is registered.')).waitFor()

      // The server has the move: Emma's agreement ends on the move date with its last payment and invoice, the new owner's starts then.
      await expect.poll(() => serverRows('SELECT id FROM household_moves').length).toBe(1)
      const ended = serverRows<{ termination_date: string; final_payment_required: number }>(
        'SELECT termination_date, final_payment_required FROM agreements WHERE id = ?',
        emma.id,
      )[0]!
      expect(ended.termination_date).toBe(moveDate)
      if (emma.vipps) {
        expect(ended.final_payment_required).toBe(1)
        const final = serverRows<{ amount_ore: number; invoice: number }>(
          `SELECT c.amount_ore, (SELECT i.total_ore FROM invoices i WHERE i.charge_id = c.id AND i.kind = 'INVOICE') AS invoice FROM charges c WHERE c.agreement_id = ? AND c.kind = 'FINAL'`,
          emma.id,
        )
        expect(final).toEqual([{ amount_ore: share, invoice: share }])
      }
      const started = serverRows<{ start_payment_date: string; price_ore: number; status: string }>(
        `SELECT a.start_payment_date, a.price_ore, a.status FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = 'jens.nygaard@example.dk'`,
      )
      expect(started).toEqual([{ start_payment_date: moveDate, price_ore: emma.price_ore, status: 'CREATED' }])
      // The household shows both: Emma moves out, Jens moves in.
      await page.getByText('Jens Nygaard').first().waitFor()
      await expect.poll(() => page.locator('.resident-list').innerText()).toContain(danish('Moving in'))
      await checkScreen(page, 'households-after-move-da')
    })
  })

  it('the administrator reads the households, and a resident sees her home on her profile, in English', async () => {
    await journey('read', async (_context, page) => {
      await signIn(page, ADMIN)
      await openFromSidebar(page, 'Households')
      await page.locator('.household-card').first().waitFor()
      await checkScreen(page, 'households-list-en')
      await page.getByLabel('Search households').fill('Clara')
      await page
        .getByRole('link', { name: /Havrevænget/ })
        .first()
        .click()
      await page.getByRole('heading', { level: 2, name: 'Residents' }).waitFor()
      await checkScreen(page, 'households-detail-en')
    })
    await journey('resident', async (_context, page) => {
      await signIn(page, EMMA)
      await page.goto('/user')
      await page.getByRole('heading', { level: 2, name: 'Your home' }).waitFor()
      await checkScreen(page, 'households-profile-en')
    })
  })

  it('the household picker of the agreement form: found by address with the keyboard, fills address, payer and parts, works offline; in English and Danish', async () => {
    const home = serverRows<{ id: string; street: string; number: string; name: string }>(
      `SELECT a.id, a.street, a.number, r.full_name AS name FROM household_residents r JOIN addresses a ON a.id = r.household_id JOIN users u ON u.id = r.user_id
        WHERE u.email_address = ? AND r.move_out_date IS NULL`,
      MIKKEL,
    )[0]!
    // The household's newest agreement (Mikkel's running one): its lines are what the picker proposes.
    const last = serverRows<{ id: string; price_ore: number }>(
      `SELECT a.id, a.price_ore FROM agreements a JOIN agreement_addresses x ON x.agreement_id = a.id WHERE x.address_id = ? ORDER BY a.created_at DESC LIMIT 1`,
      home.id,
    )[0]!
    const descriptions = serverRows<{ description: string }>('SELECT description FROM agreement_parts WHERE agreement_id = ?', last.id).map(
      (p) => p.description,
    )
    const agreementsOf = () =>
      serverRows<{ id: string }>('SELECT a.id FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ?', MIKKEL)
    const before = agreementsOf().length

    await journey('picker', async (context, page) => {
      await signIn(page, ADMIN)
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Agreements' }).click()
      await page.getByRole('link', { name: 'Add agreement' }).click()
      const form = page.getByRole('form', { name: 'Create agreement' })
      const search = form.getByRole('combobox', { name: 'Find the household by address' })
      await search.waitFor()
      // From here on the device is offline: the households and agreements come from the local copy, the new agreement goes to the outbox.
      await context.setOffline(true)
      await search.fill(`${home.street} ${home.number}`)
      const option = form.getByRole('listbox', { name: 'Households' }).getByRole('option', { name: new RegExp(home.name) })
      await option.waitFor()
      // Flats share a street number: the arrows move through the matches to Mikkel's (its option names who lives there).
      const activeText = async () => await page.locator(`[id="${await search.getAttribute('aria-activedescendant')}"]`).innerText()
      await search.press('ArrowDown')
      for (let i = 0; i < 8 && !(await activeText()).includes(home.name); i++) await search.press('ArrowDown')
      expect(await activeText()).toContain(home.name)
      await search.press('Enter')
      await form.getByRole('button', { name: 'Choose another household' }).waitFor()
      expect(await form.getByRole('list', { name: 'Chosen addresses' }).innerText()).toContain(`${home.street} ${home.number}`)
      expect(await form.getByLabel('Full name').inputValue()).toBe(home.name)
      expect(await form.getByLabel('Email', { exact: true }).inputValue()).toBe(MIKKEL)
      expect(await form.getByRole('radio', { name: new RegExp(home.name) }).isChecked()).toBe(true)
      await form.getByText('are proposed below').waitFor()
      expect(descriptions).toContain(await form.getByRole('group', { name: 'Part 1' }).getByLabel('Description').inputValue())
      await checkScreen(page, 'agreement-household-picker-en')

      const next = new Date()
      await form.getByLabel('Start payment date').fill(new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 2, 1)).toISOString().slice(0, 10))
      await form.getByRole('button', { name: 'Create agreement' }).click()
      await page.waitForURL(/\/agreements$/)
      await context.setOffline(false)
      await expect.poll(() => agreementsOf().length, { timeout: 30_000 }).toBe(before + 1)
      const made = serverRows<{ price_ore: number; address: string }>(
        `SELECT a.price_ore, (SELECT x.address_id FROM agreement_addresses x WHERE x.agreement_id = a.id) AS address
          FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ? ORDER BY a.created_at DESC LIMIT 1`,
        MIKKEL,
      )[0]
      expect(made).toEqual({ price_ore: last.price_ore, address: home.id })
    })

    await journey('picker-da', async (_context, page) => {
      await signIn(page, CHAIRMAN)
      await page.goto('/agreements/create')
      const search = page.getByRole('combobox', { name: danish('Find the household by address') })
      await search.fill(home.street)
      const list = page.getByRole('listbox', { name: danish('Households') })
      await list.getByRole('option').first().waitFor()
      expect(await list.getByRole('option').count()).toBeGreaterThan(1)
      await checkScreen(page, 'agreement-household-picker-da-search')
      await list.getByRole('option', { name: new RegExp(home.name) }).click()
      await page.getByRole('group', { name: danish('Payer among the residents') }).waitFor()
      await checkScreen(page, 'agreement-household-picker-da')
    })
  })
})
