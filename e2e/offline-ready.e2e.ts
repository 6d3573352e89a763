/**
 * Ready offline from the first visit (docs/decisions/0087-ready-offline-from-the-first-visit.md,
 * docs/OFFLINE.md "Service worker"): a board member signs in on a fresh browser and opens Profile;
 * the page that installed the service worker becomes controlled without a reload, the sync status
 * says "Ready offline", and from that moment on — the network going at once, the hardest case — the
 * screens opened work offline, after a reload too, with their data from this device. How soon
 * that is (within 2 s of the first screen on the bench machine) is a figure of `npm run bench`
 * (bench/first-visit.ts), as tests hold no wall clock (docs/ARCHITECTURE.md "Tests").
 *
 * Offline is the browser's (`context.setOffline(true)`) and the server stopped as well: Playwright
 * does not take the network from the service worker, so only a stopped server proves that nothing
 * came from it.
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD, snap } from './harness'
import { checkScreen, journeySuite } from './journeys'

const { suite, journey, tr } = journeySuite('offline-ready', 41)

const sidebar = (page: Page) => page.locator('nav.sidebar-nav')
const readiness = (page: Page) => page.locator('.sync-indicator:visible [data-offline-ready]')
const personal = (page: Page) => page.locator('section[aria-labelledby="personal-title"]')

async function signIn(page: Page, email: string) {
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** The network goes: the browser's, and the server is stopped (see above); back after `fn`. */
async function withoutNetwork(context: BrowserContext, fn: () => Promise<void>) {
  await context.setOffline(true)
  await suite.server.stop()
  try {
    await fn()
  } finally {
    await suite.server.start()
  }
}

/**
 * Signs in on a fresh browser, waits for the first screen (the agreements, with rows), opens
 * Profile and goes back, and waits for "Ready offline"; the page is then the first one, controlled.
 */
async function firstVisit(page: Page, email: string, { signedIn = false } = {}) {
  const t = tr(email)
  if (!signedIn) await signIn(page, email)
  await page.getByRole('heading', { level: 1, name: t('Agreements') }).waitFor()
  await page.locator('table tbody tr').first().waitFor()
  // The same document from here on: only links are followed.
  await page.evaluate(() => ((window as unknown as { firstDocument: boolean }).firstDocument = true))

  await openFromSidebar(page, t('Profile'))
  await personal(page).getByText(email).first().waitFor()
  await openFromSidebar(page, t('Agreements'))

  // Said in the indicator, and so in its button's name for a screen reader.
  await expect.poll(() => readiness(page).getAttribute('data-offline-ready')).toBe('ready')
  expect(await readiness(page).innerText()).toBe(t('Ready offline'))
  await page
    .getByRole('button', { name: new RegExp(t('Ready offline')) })
    .first()
    .waitFor()
  expect(
    await page.evaluate(() => ({
      controlled: navigator.serviceWorker.controller !== null,
      same: (window as unknown as { firstDocument?: boolean }).firstDocument === true,
    })),
  ).toEqual({ controlled: true, same: true })
}

async function openFromSidebar(page: Page, name: string) {
  await sidebar(page).getByRole('link', { name, exact: true }).click()
  await page.getByRole('heading', { level: 1, name }).waitFor()
}

describe('ready offline from the first visit', () => {
  it('a board member: the first page is controlled, "Klar til offline" is said, and the screens opened work offline after a reload', () =>
    journey('board-member', async (context, page) => {
      const email = 'bestyrelse@solgaarden.dk'
      const t = tr(email)
      await firstVisit(page, email)
      await checkScreen(page, 'offline-ready-agreements')

      // The network goes at once, the hardest case.
      await withoutNetwork(context, async () => {
        // Another screen opened before, then a reload: the shell, the screen and its data come from this device.
        await openFromSidebar(page, t('Profile'))
        await page.reload()
        await page.getByRole('heading', { level: 1, name: t('Profile') }).waitFor()
        await page.locator('.profile-offline').waitFor()
        await personal(page).getByText(email).first().waitFor()
        expect(await page.getByText(t('Loading profile')).count()).toBe(0)
        await expect.poll(() => page.locator('.sync-indicator:visible').getAttribute('data-state')).toBe('offline')
        await readiness(page).getByText(t('Ready offline')).waitFor()
        await checkScreen(page, 'offline-ready-profile-offline')

        // The first screen again: its rows from this device.
        await openFromSidebar(page, t('Agreements'))
        await page.locator('table tbody tr').first().waitFor()
      })
    }))

  it('a resident: "Getting ready for offline use…" while the worker is not there yet, then "Ready offline"; Profile offline', () =>
    journey('resident', async (context, page) => {
      const email = 'beboer03@solgaarden.dk'
      const t = tr(email)
      // The worker's script is held until the indicator has said it is not ready yet.
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      await context.route('**/sw.js', async (route) => {
        await held
        await route.fallback()
      })
      await signIn(page, email)
      await page.getByRole('heading', { level: 1, name: t('Agreements') }).waitFor()
      await readiness(page).getByText(t('Getting ready for offline use…')).waitFor()
      expect(await readiness(page).getAttribute('data-offline-ready')).toBe('preparing')
      // At desktop and phone width (where it takes the time's line), no sideways scroll, axe-clean.
      await checkScreen(page, 'offline-ready-resident-preparing')
      release()

      await firstVisit(page, email, { signedIn: true })
      await snap(page, 'offline-ready-resident-ready')
      await openFromSidebar(page, t('Profile'))
      await withoutNetwork(context, async () => {
        await page.reload()
        await personal(page).getByText(email).first().waitFor()
        await readiness(page).getByText(t('Ready offline')).waitFor()
      })
    }))
})
