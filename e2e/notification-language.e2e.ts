/**
 * A notification is written in the language its user had then,
 * but read in the language chosen now. An English administrator has English notifications (the
 * welcome, and a new sign-in method whose name has markup); switching to Danish, offline on the
 * Profile, shows them in Danish at once, and again after a reload offline, with the name as text
 * and no English left on the screen.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, snap } from './harness'
import { englishLeaks, englishMarkers } from './axe'
import { journeySuite, signIn } from './journeys'

const { journey, serverRows } = journeySuite('notification-language', 25)

const ADMIN = 'admin@solgaarden.dk'
const MARKUP_NAME = '<b>Bo</b> phone'

const serviceWorkerReady = (page: Page) => page.evaluate(async () => void (await navigator.serviceWorker.ready))
const titles = (page: Page) => page.locator('.notification-title')

/** Names and demo content shown as they are in either language. */
const allowList = () =>
  [...serverRows<{ v: string }>('SELECT full_name AS v FROM users UNION SELECT name FROM companies').map((r) => r.v), MARKUP_NAME, 'Boligkasse'].sort(
    (a, b) => b.length - a.length,
  )

async function expectDanishNotifications(page: Page) {
  await titles(page).filter({ hasText: 'Velkommen til Boligkasse' }).waitFor()
  await titles(page).filter({ hasText: 'Ny loginmetode tilføjet' }).waitFor()
  const added = page.locator('.notification').filter({ has: titles(page).filter({ hasText: 'Ny loginmetode tilføjet' }) })
  // The name is text: its markup shown as written, never made bold or cut up.
  expect(await added.locator('.notification-message strong').textContent()).toBe(MARKUP_NAME)
  expect(await added.locator('.notification-message b').count()).toBe(0)
  expect(await added.getByRole('link', { name: 'Åbn profil' }).count()).toBe(1)
  expect(await page.getByText('Welcome to Boligkasse').count()).toBe(0)
  expect(await englishLeaks(page, { markers: englishMarkers(), allowed: allowList() })).toEqual([])
}

describe('Notifications in the language chosen now', () => {
  it('an English user switches to Danish offline: older notifications read in Danish, also after a reload offline', () =>
    journey('switch-offline', async (context, page) => {
      expect(serverRows<{ language: string }>('SELECT language FROM users WHERE email_address = ?', ADMIN)[0]!.language).toBe('EN')
      await signIn(page, ADMIN)
      await serviceWorkerReady(page)
      // A second English notification, naming a sign-in method whose name has markup.
      const login = await context.request.post('/api/auth/login', { data: { type: 'email', email: ADMIN, password: DEMO_PASSWORD } })
      const { accessToken } = (await login.json()) as { accessToken: string }
      const added = await context.request.post('/api/account/auth-methods', {
        headers: { authorization: `Bearer ${accessToken}` },
        data: { type: 'LOGIN_TOKEN', identifier: MARKUP_NAME, currentPassword: DEMO_PASSWORD },
      })
      expect(added.status()).toBeLessThan(300)
      expect(serverRows<{ title: string }>("SELECT title FROM notifications WHERE title = 'New sign-in method added'")).toHaveLength(1)

      await page.goto('/notifications')
      await titles(page).filter({ hasText: 'New sign-in method added' }).waitFor()
      await titles(page).filter({ hasText: 'Welcome to Boligkasse' }).waitFor()

      // Offline, the language is changed on the Profile (this device switches at once).
      await page.goto('/user')
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
      await context.setOffline(true)
      await page.reload()
      await page.locator('.profile-offline').waitFor()
      const personal = page.locator('section[aria-labelledby="personal-title"]')
      await personal.getByRole('button').nth(3).click()
      await personal.locator('select').selectOption('DA')
      await personal.locator('button[type="submit"]').click()
      await page.getByRole('heading', { name: 'Profil', level: 1 }).waitFor()

      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: /^Notifikationer/ })
        .first()
        .click()
      await expectDanishNotifications(page)

      await page.reload()
      await expectDanishNotifications(page)
      await snap(page, 'notification-language-da-offline-1280')
      await page.setViewportSize({ width: 375, height: 812 })
      await snap(page, 'notification-language-da-offline-375')
    }))
})
