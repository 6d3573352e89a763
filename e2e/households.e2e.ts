/**
 * Households and moves (docs/PRODUCT.md "Households", decision 0090), in Danish: the chairman finds
 * Emma's household, registers her move-out with a new owner moving in, sees the final settlement
 * (the share of the period up to the move date) before confirming, and the move ends Emma's
 * agreement with its last payment (a FINAL charge with its invoice) and gives the new owner an
 * agreement from the move date with the household's parts. In English, the administrator's list
 * and a household, and the resident's home on her profile. Every screen is axe-clean and fits
 * 375 px (screenshots under test-results/).
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
import { checkScreen, journeySuite, openFromSidebar, signIn } from './journeys'

const { journey, serverRows } = journeySuite('households', 90)

const CHAIRMAN = 'formand@solgaarden.dk' // Danish
const ADMIN = 'admin@solgaarden.dk' // English
const EMMA = 'beboer03@solgaarden.dk' // English, agreement 1001

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
})
