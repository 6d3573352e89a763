/**
 * Issue #10 journey: a board member (Danish interface) writes a notice to all members and sends
 * it; a resident signs in, finds it in Messages and reads it; the sender then sees the resident's
 * Viewed time on the Recipients tab.
 */
import { describe, expect, it } from 'vitest'
import { journeySuite, signIn, snapBoth } from './journeys'

const { journey, serverRows } = journeySuite('messages', 10)
const subject = 'Generalforsamling 12. marts'

describe('message journeys', () => {
  it('a board notice to all members is read by a resident, and the sender sees it viewed', async () => {
    await journey('board-notice', async (_context, page) => {
      await signIn(page, 'bestyrelse@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Beskeder' }).click()
      await page.waitForURL(/\/messages$/)
      await page.getByRole('link', { name: 'Skriv en besked' }).click()
      const form = page.locator('form.message-form')
      // §5 messages for what is missing.
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      for (const message of ['Vælg en modtager', 'Indtast et emne', 'Indtast beskedens indhold']) await form.locator('.field-error', { hasText: message }).waitFor()
      await form.getByLabel('Type').selectOption('NOTICE')
      await form.getByLabel('Modtager').selectOption('ALL_MEMBERS')
      await form.getByLabel('Emne').fill(subject)
      await form.getByLabel('Indhold').fill('Kære beboere,\nDer er ordinær generalforsamling den 12. marts kl. 19 i fælleshuset.')
      await snapBoth(page, 'message-create')
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      await page.waitForURL(/\/messages$/)
      await page.getByRole('row', { name: new RegExp(subject) }).waitFor()
      await expect
        .poll(() => serverRows<{ status: string }>('SELECT status FROM messages WHERE subject = ?', subject)[0]?.status, { timeout: 15_000 })
        .toMatch(/SENT|DELIVERED/)
      await snapBoth(page, 'message-list')
    })

    await journey('resident-reads', async (_context, page) => {
      await signIn(page, 'beboer02@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Beskeder' }).click()
      const link = page.getByRole('link', { name: subject })
      await link.waitFor({ timeout: 15_000 })
      await link.click()
      await page.getByText('ordinær generalforsamling den 12. marts').waitFor()
      await page.getByText(/Beskeden var en meddelelse sendt af Jonas Berg den/).waitFor()
      await snapBoth(page, 'message-view-resident')
      await expect
        .poll(
          () =>
            serverRows<{ viewed_at: string | null }>(
              "SELECT r.viewed_at FROM message_recipients r JOIN messages m ON m.id = r.message_id WHERE m.subject = ? AND r.email_address = 'beboer02@solgaarden.dk'",
              subject,
            )[0]?.viewed_at ?? null,
          { timeout: 15_000 },
        )
        .not.toBeNull()
    })

    await journey('sender-sees-viewed', async (_context, page) => {
      await signIn(page, 'bestyrelse@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Beskeder' }).click()
      await page.getByRole('link', { name: subject }).click()
      await page.getByRole('tab', { name: 'Modtagere' }).click()
      const row = page.getByRole('row', { name: /beboer02@solgaarden\.dk/ })
      await row.waitFor({ timeout: 15_000 })
      // Received and Viewed both carry a time now ("Ikke endnu" = not yet).
      await expect.poll(() => row.locator('td').nth(1).innerText(), { timeout: 15_000 }).not.toBe('Ikke endnu')
      await expect.poll(() => row.locator('td').nth(1).innerText()).toMatch(/\d/)
      await snapBoth(page, 'message-recipients')
    })
  })
})
