/**
 * Messages journey (decision 0025): a board member (Danish interface) writes a notice to all members and sends
 * it; a resident signs in, finds it in Messages and reads it; the sender then sees the resident's
 * Viewed time on the Recipients tab.
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
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
      // docs/PRODUCT.md §5 messages for what is missing.
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      for (const message of ['Vælg en modtager', 'Indtast et emne', 'Indtast beskedens indhold'])
        await form.locator('.field-error', { hasText: message }).waitFor()
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

  it('a sending time in the past is refused at the field and the edit stays', async () => {
    await journey('schedule-in-the-past', async (_context, page) => {
      const draftSubject = 'Vandforbrug 2026'
      await signIn(page, 'bestyrelse@solgaarden.dk')
      await page.goto('/messages/create')
      const form = page.locator('form.message-form')
      await form.getByLabel('Modtager').selectOption('ALL_MEMBERS')
      await form.getByLabel('Emne').fill(draftSubject)
      await form.getByLabel('Indhold').fill('Husk at aflæse vandmåleren.')
      await form.getByRole('button', { name: danish('Save draft') }).click()
      await page.waitForURL(/\/messages$/)
      await expect
        .poll(() => serverRows<{ n: number }>('SELECT count(*) AS n FROM messages WHERE subject = ?', draftSubject)[0]?.n, { timeout: 15_000 })
        .toBe(1)
      const id = serverRows<{ id: string }>('SELECT id FROM messages WHERE subject = ?', draftSubject)[0]!.id

      // The draft is edited: a new subject and a time that has already passed.
      await page.goto(`/messages/${id}/edit`)
      await form.getByLabel('Emne').fill(`${draftSubject} (rettet)`)
      await form.getByLabel(danish('Send later')).check()
      await form.getByLabel(danish('Send at (Danish time)')).fill('2025-01-06T09:00')
      await form.getByRole('button', { name: danish('Schedule') }).click()
      const error = form.locator('.field-error', { hasText: danish('The sending time must be in the future.') })
      await error.waitFor()
      // Still on the form, with the edit kept; nothing was sent to the server.
      expect(page.url()).toMatch(/\/edit$/)
      expect(await form.getByLabel('Emne').inputValue()).toBe(`${draftSubject} (rettet)`)
      expect(serverRows<{ subject: string }>('SELECT subject FROM messages WHERE id = ?', id)[0]?.subject).toBe(draftSubject)
      await snapBoth(page, 'message-schedule-past')

      // A time ahead is accepted, with the new subject.
      await form.getByLabel(danish('Send at (Danish time)')).fill('2027-01-06T09:00')
      await form.getByRole('button', { name: danish('Schedule') }).click()
      await page.waitForURL(new RegExp(`/messages/${id}$`))
      await expect
        .poll(() => serverRows<{ subject: string; send_at: string | null }>('SELECT subject, send_at FROM messages WHERE id = ?', id)[0], { timeout: 15_000 })
        .toEqual({ subject: `${draftSubject} (rettet)`, send_at: '2027-01-06T08:00:00.000Z' })
    })

    await journey('message-list-en', async (_context, page) => {
      // The administrator reads in English: the list with the scheduled draft and the sent notice.
      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Messages' }).click()
      await page.getByRole('link', { name: 'Generalforsamling 12. marts' }).waitFor({ timeout: 15_000 })
      await snapBoth(page, 'message-list-en')
    })
  })
})
